import { TextInput, Textarea } from '@mantine/core';
import { CourseCreate } from '@kadai/contracts';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { schemaRule } from '../../ui/form.ts';
import { TimeZoneSelect } from '../../ui/TimeZoneSelect.tsx';

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
  return (
    <Controller
      control={form.control}
      name="time_zone"
      render={({ field, fieldState }) => (
        <TimeZoneSelect
          label={t('courses.fields.timeZone')}
          description={t('courses.fields.timeZoneHelp')}
          nothingFound={t('courses.fields.timeZoneNothing')}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
