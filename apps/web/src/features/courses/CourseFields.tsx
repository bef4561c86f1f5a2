import { Select, TextInput, Textarea } from '@mantine/core';
import { CourseCreate, supportedTimeZones } from '@kadai/contracts';
import { useMemo } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { schemaRule } from '../../ui/form.ts';

/** What a course form edits: the same fields when staff create a course and when it is edited. */
export interface CourseFormValues {
  title: string;
  description: string;
  has_videos: boolean;
  has_assessment: boolean;
  /** An IANA zone; null (a new course): the server's default zone. */
  time_zone: string | null;
}

export const EMPTY_COURSE: CourseFormValues = {
  title: '',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: null,
};

/** This browser's zones, with the course's own first when the browser does not list it. */
function zoneChoices(current: string | null): string[] {
  const zones = supportedTimeZones();
  return current === null || zones.includes(current) ? zones : [current, ...zones];
}

/**
 * Title, description and the two feature flags, validated with the contract's own rules; with
 * `withTimeZone` (the settings page) also the course's time zone. A new course gets the server's default
 * zone, which its settings then show.
 */
export function CourseFields({
  form,
  flagKind,
  autoFocus = false,
  withTimeZone = false,
}: {
  form: UseFormReturn<CourseFormValues>;
  /** Checkboxes in the create dialog, switches on the settings page. */
  flagKind?: 'checkbox' | 'switch';
  autoFocus?: boolean;
  withTimeZone?: boolean;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  return (
    <>
      <TextInput
        label={t('courses.fields.title')}
        required
        data-autofocus={autoFocus || undefined}
        error={errors.title?.message}
        {...form.register('title', {
          validate: schemaRule(CourseCreate.shape.title, t('validation.titleRequired', { max: 200 })),
        })}
      />
      <Textarea
        label={t('courses.fields.description')}
        autosize
        minRows={3}
        maxRows={12}
        error={errors.description?.message}
        {...form.register('description', {
          validate: schemaRule(CourseCreate.shape.description, t('validation.maxLength', { max: 10000 })),
        })}
      />
      <BooleanField
        kind={flagKind}
        control={form.control}
        name="has_videos"
        label={t('courses.fields.hasVideos')}
      />
      <BooleanField
        kind={flagKind}
        control={form.control}
        name="has_assessment"
        label={t('courses.fields.hasAssessment')}
      />
      {withTimeZone ? <TimeZoneField form={form} /> : null}
    </>
  );
}

function TimeZoneField({ form }: { form: UseFormReturn<CourseFormValues> }) {
  const { t } = useTranslation();
  const initial = form.formState.defaultValues?.time_zone ?? null;
  const data = useMemo(() => zoneChoices(initial), [initial]);
  return (
    <Controller
      control={form.control}
      name="time_zone"
      render={({ field, fieldState }) => (
        <Select
          label={t('courses.fields.timeZone')}
          description={t('courses.fields.timeZoneHelp')}
          data={data}
          searchable
          nothingFoundMessage={t('courses.fields.timeZoneNothing')}
          allowDeselect={false}
          value={field.value}
          onChange={(value) => {
            if (value !== null) field.onChange(value);
          }}
          onBlur={field.onBlur}
          ref={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
