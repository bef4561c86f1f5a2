import {
  Fieldset,
  Input,
  NumberInput,
  SimpleGrid,
  Stack,
  Tabs,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  AssignmentCreate,
  FileExtension,
  FileName,
  MAX_SUBMISSION_FILES,
  MAX_SUBMISSION_FILE_BYTES,
} from '@kadai/contracts';
import { useId } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { schemaRule } from '../../ui/form.ts';
import { CourseZoneHint } from '../courses/CourseZoneHint.tsx';
import { normaliseExtension, type AssignmentFormValues } from './assignment-form.ts';
import { browserTimeZone, fromLocalInput } from './dates.ts';

const MAX_FILE_KB = MAX_SUBMISSION_FILE_BYTES / 1024;

/** Every field of the assignment editor, in four groups: statement, code, files, dates. */
export function AssignmentFormFields({
  form,
  courseTimeZone,
}: {
  form: UseFormReturn<AssignmentFormValues>;
  /** The course's zone, named under the dates when the browser's differs. */
  courseTimeZone: string;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const statement = form.watch('statement');
  const due = form.watch('due_at');
  return (
    <>
      <Fieldset legend={t('assignments.editor.statementGroup')}>
        <Stack gap="sm">
          <TextInput
            label={t('assignments.fields.title')}
            required
            data-autofocus
            error={errors.title?.message}
            {...form.register('title', {
              validate: schemaRule(AssignmentCreate.shape.title, t('validation.titleRequired', { max: 200 })),
            })}
          />
          <Tabs defaultValue="write" keepMounted={false}>
            <Tabs.List aria-label={t('assignments.fields.statement')}>
              <Tabs.Tab value="write">{t('assignments.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('assignments.editor.preview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('assignments.fields.statement')}
                description={t('assignments.editor.markdownHelp')}
                autosize
                minRows={6}
                maxRows={20}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                {...form.register('statement')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              {statement.trim() ? (
                <Markdown source={statement} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('assignments.editor.nothingToPreview')}
                </Text>
              )}
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Fieldset>

      <Fieldset legend={t('assignments.editor.codeGroup')}>
        <Stack gap="sm">
          <CodeField
            form={form}
            name="starter_code"
            label={t('assignments.fields.starterCode')}
            help={t('assignments.editor.starterHelp')}
          />
          <CodeField
            form={form}
            name="reference_solution"
            label={t('assignments.fields.referenceSolution')}
            help={t('assignments.editor.referenceHelp')}
          />
        </Stack>
      </Fieldset>

      <Fieldset legend={t('assignments.editor.filesGroup')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('assignments.fields.entryFile')}
            description={t('assignments.editor.entryFileHelp')}
            required
            error={errors.entry_file?.message}
            {...form.register('entry_file', {
              validate: schemaRule(FileName, t('assignments.editor.badFileName')),
            })}
          />
          <Controller
            control={form.control}
            name="required_files"
            rules={{
              validate: (names) =>
                names.every((name) => FileName.safeParse(name).success) ||
                t('assignments.editor.badFileName'),
            }}
            render={({ field, fieldState }) => (
              <TagsInput
                label={t('assignments.fields.requiredFiles')}
                description={t('assignments.editor.requiredFilesHelp')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
                maxTags={MAX_SUBMISSION_FILES}
                splitChars={[',', ' ']}
              />
            )}
          />
          <Controller
            control={form.control}
            name="allowed_extensions"
            rules={{
              validate: (values) =>
                (values.length > 0 &&
                  values.every((value) => FileExtension.safeParse(normaliseExtension(value)).success)) ||
                t('assignments.editor.badExtension'),
            }}
            render={({ field, fieldState }) => (
              <TagsInput
                label={t('assignments.fields.allowedExtensions')}
                description={t('assignments.editor.extensionsHelp')}
                value={field.value}
                onChange={(values) => field.onChange([...new Set(values.map(normaliseExtension))])}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
                maxTags={20}
                splitChars={[',', ' ']}
              />
            )}
          />
          <Controller
            control={form.control}
            name="max_files"
            rules={{ min: 1, max: MAX_SUBMISSION_FILES, required: true }}
            render={({ field, fieldState }) => (
              <NumberInput
                label={t('assignments.fields.maxFiles')}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 1)}
                onBlur={field.onBlur}
                min={1}
                max={MAX_SUBMISSION_FILES}
                allowDecimal={false}
                clampBehavior="strict"
                error={
                  fieldState.error
                    ? t('assignments.editor.range', { min: 1, max: MAX_SUBMISSION_FILES })
                    : undefined
                }
              />
            )}
          />
          <Controller
            control={form.control}
            name="max_file_kb"
            rules={{ min: 1, max: MAX_FILE_KB, required: true }}
            render={({ field, fieldState }) => (
              <NumberInput
                label={t('assignments.fields.maxFileKb')}
                description={t('assignments.editor.maxFileHelp', { max: MAX_FILE_KB })}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 1)}
                onBlur={field.onBlur}
                min={1}
                max={MAX_FILE_KB}
                allowDecimal={false}
                clampBehavior="strict"
                suffix=" kB"
                error={
                  fieldState.error ? t('assignments.editor.range', { min: 1, max: MAX_FILE_KB }) : undefined
                }
              />
            )}
          />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend={t('assignments.editor.datesGroup')}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('assignments.editor.timeZone', { zone: browserTimeZone() })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              type="datetime-local"
              label={t('assignments.fields.opensAt')}
              required
              error={errors.opens_at?.message}
              {...form.register('opens_at', {
                validate: (value) => fromLocalInput(value) !== null || t('assignments.editor.dateRequired'),
              })}
            />
            <TextInput
              type="datetime-local"
              label={t('assignments.fields.dueAt')}
              required
              error={errors.due_at?.message}
              {...form.register('due_at', {
                deps: ['late_until'],
                validate: (value, values) => {
                  const due = fromLocalInput(value);
                  const opens = fromLocalInput(values.opens_at);
                  if (due === null) return t('assignments.editor.dateRequired');
                  return (
                    opens === null ||
                    Date.parse(due) > Date.parse(opens) ||
                    t('assignments.editor.dueAfterOpens')
                  );
                },
              })}
            />
            <TextInput
              type="datetime-local"
              label={t('assignments.fields.lateUntil')}
              description={t('assignments.editor.lateHelp')}
              error={errors.late_until?.message}
              {...form.register('late_until', {
                validate: (value, values) => {
                  const late = fromLocalInput(value);
                  const due = fromLocalInput(values.due_at);
                  return (
                    late === null ||
                    due === null ||
                    Date.parse(late) >= Date.parse(due) ||
                    t('assignments.editor.lateAfterDue')
                  );
                },
              })}
            />
          </SimpleGrid>
          <CourseZoneHint zone={courseTimeZone} due={due} />
          <BooleanField
            control={form.control}
            name="leaderboard_enabled"
            label={t('assignments.fields.leaderboard')}
          />
        </Stack>
      </Fieldset>
    </>
  );
}

function CodeField({
  form,
  name,
  label,
  help,
}: {
  form: UseFormReturn<AssignmentFormValues>;
  name: 'starter_code' | 'reference_solution';
  label: string;
  help: string;
}) {
  const { t } = useTranslation();
  const helpId = useId();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Input.Wrapper label={label} description={help} descriptionProps={{ id: helpId }} labelElement="div">
          <CodeEditor
            value={field.value}
            onChange={field.onChange}
            label={label}
            describedBy={helpId}
            minHeight={120}
            maxHeight={360}
            placeholder={t('assignments.editor.codePlaceholder')}
          />
        </Input.Wrapper>
      )}
    />
  );
}
