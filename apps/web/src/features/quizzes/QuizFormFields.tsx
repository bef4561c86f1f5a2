import {
  Fieldset,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { QuizCreate } from '@kadai/contracts';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import { schemaRule } from '../../ui/form.ts';
import { browserTimeZone, fromLocalInput } from '../assignments/dates.ts';
import { CourseZoneHint } from '../courses/CourseZoneHint.tsx';
import { REVIEW_PRESETS, type QuizFormValues } from './quiz-form.ts';

const MAX_MINUTES = 24 * 60;

/** Title and description of the quiz, then its window in this course and when review opens. */
export function QuizFormFields({
  form,
  courseTimeZone,
}: {
  form: UseFormReturn<QuizFormValues>;
  /** The course's zone, named under the dates when the browser's differs. */
  courseTimeZone: string;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const description = form.watch('description');
  const closes = form.watch('closes_at');
  return (
    <>
      <Fieldset legend={t('quiz.editor.aboutGroup')}>
        <Stack gap="sm">
          <TextInput
            label={t('quiz.editor.title')}
            required
            data-autofocus
            error={errors.title?.message}
            {...form.register('title', {
              validate: schemaRule(QuizCreate.shape.title, t('validation.titleRequired', { max: 200 })),
            })}
          />
          <Tabs defaultValue="write" keepMounted={false}>
            <Tabs.List aria-label={t('quiz.editor.description')}>
              <Tabs.Tab value="write">{t('quiz.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('quiz.editor.markdownPreview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('quiz.editor.description')}
                description={t('quiz.editor.markdownHelp')}
                autosize
                minRows={3}
                maxRows={14}
                {...form.register('description')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              {description.trim() ? (
                <Markdown source={description} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('quiz.editor.nothingToPreview')}
                </Text>
              )}
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Fieldset>

      <Fieldset legend={t('quiz.editor.windowGroup')}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('quiz.editor.timeZone', { zone: browserTimeZone() })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              type="datetime-local"
              label={t('quiz.facts.opens')}
              required
              error={errors.opens_at?.message}
              {...form.register('opens_at', {
                deps: ['closes_at'],
                validate: (value) => fromLocalInput(value) !== null || t('quiz.editor.dateRequired'),
              })}
            />
            <TextInput
              type="datetime-local"
              label={t('quiz.facts.closes')}
              required
              error={errors.closes_at?.message}
              {...form.register('closes_at', {
                validate: (value, values) => {
                  const closes = fromLocalInput(value);
                  const opens = fromLocalInput(values.opens_at);
                  if (closes === null) return t('quiz.editor.dateRequired');
                  return (
                    opens === null ||
                    Date.parse(closes) > Date.parse(opens) ||
                    t('quiz.editor.closesAfterOpens')
                  );
                },
              })}
            />
            <Controller
              control={form.control}
              name="time_limit"
              rules={{
                validate: (value) =>
                  value === '' ||
                  (Number.isInteger(value) && value >= 1 && value <= MAX_MINUTES) ||
                  t('quiz.editor.timeLimitRange', { max: MAX_MINUTES }),
              }}
              render={({ field, fieldState }) => (
                <NumberInput
                  label={t('quiz.editor.timeLimit')}
                  description={t('quiz.editor.timeLimitHelp')}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                  onBlur={field.onBlur}
                  min={1}
                  max={MAX_MINUTES}
                  allowDecimal={false}
                  allowNegative={false}
                  error={fieldState.error?.message}
                  // The help under the box, so the three boxes line up.
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                />
              )}
            />
          </SimpleGrid>
          <CourseZoneHint zone={courseTimeZone} due={closes} />
        </Stack>
      </Fieldset>

      <Fieldset legend={t('quiz.editor.reviewGroup')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <ReviewField form={form} which="scores" />
          <ReviewField form={form} which="answers" />
        </SimpleGrid>
      </Fieldset>
    </>
  );
}

function ReviewField({ form, which }: { form: UseFormReturn<QuizFormValues>; which: 'scores' | 'answers' }) {
  const { t } = useTranslation();
  const presetName = which === 'scores' ? 'scores_preset' : 'answers_preset';
  const dateName = which === 'scores' ? 'scores_at' : 'answers_at';
  const preset = form.watch(presetName);
  return (
    <Stack gap="xs">
      <Controller
        control={form.control}
        name={presetName}
        render={({ field }) => (
          <Select
            label={which === 'scores' ? t('quiz.editor.scoresVisible') : t('quiz.editor.answersVisible')}
            description={which === 'scores' ? t('quiz.editor.scoresHelp') : t('quiz.editor.answersHelp')}
            data={REVIEW_PRESETS.map((value) => ({ value, label: t(`quiz.editor.presets.${value}`) }))}
            // The help under the box, so the two boxes line up whatever its length.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={field.value}
            onChange={(value) => {
              const next = REVIEW_PRESETS.find((candidate) => candidate === value);
              if (next) field.onChange(next);
            }}
            allowDeselect={false}
          />
        )}
      />
      {preset === 'on_date' ? (
        <TextInput
          type="datetime-local"
          label={which === 'scores' ? t('quiz.editor.scoresDate') : t('quiz.editor.answersDate')}
          required
          error={form.formState.errors[dateName]?.message}
          {...form.register(dateName, {
            validate: (value, values) =>
              values[presetName] !== 'on_date' ||
              fromLocalInput(value) !== null ||
              t('quiz.editor.dateRequired'),
          })}
        />
      ) : null}
    </Stack>
  );
}
