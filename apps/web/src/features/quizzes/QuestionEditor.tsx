import {
  Group,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { QUESTION_KINDS, type QuestionKind } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { OptionListEditor } from './OptionListEditor.tsx';
import { CHOICE_KINDS, changeKind, type QuestionFormValues } from './quiz-form.ts';

/** One question of the editor: kind, prompt, points, the options and key of its kind, explanation. */
export function QuestionEditor({
  number,
  value,
  onChange,
  error,
}: {
  number: number;
  value: QuestionFormValues;
  onChange: (value: QuestionFormValues) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const set = <K extends keyof QuestionFormValues>(key: K, next: QuestionFormValues[K]) =>
    onChange({ ...value, [key]: next });

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('quiz.editor.kind', { number })}
          data={QUESTION_KINDS.map((kind) => ({ value: kind, label: t(`quiz.kinds.${kind}`) }))}
          value={value.kind}
          onChange={(next) => {
            const kind = QUESTION_KINDS.find((candidate) => candidate === next);
            if (kind && kind !== value.kind) onChange(changeKind(value, kind));
          }}
          allowDeselect={false}
        />
        <NumberInput
          label={t('quiz.editor.points', { number })}
          value={value.points}
          onChange={(next) => set('points', typeof next === 'number' ? next : 0)}
          min={0}
          max={1000}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
        />
      </SimpleGrid>
      <Textarea
        label={t('quiz.editor.prompt', { number })}
        description={t('quiz.editor.markdownHelp')}
        required
        autosize
        minRows={2}
        maxRows={12}
        value={value.prompt}
        onChange={(event) => set('prompt', event.currentTarget.value)}
      />
      <KeyFields number={number} value={value} onChange={onChange} kind={value.kind} />
      {value.kind === 'single' || value.kind === 'multiple' ? (
        <Switch
          label={t('quiz.editor.shuffle')}
          checked={value.shuffle_options}
          onChange={(event) => set('shuffle_options', event.currentTarget.checked)}
        />
      ) : null}
      <Textarea
        label={t('quiz.editor.explanation', { number })}
        description={t('quiz.editor.explanationHelp')}
        autosize
        minRows={1}
        maxRows={10}
        value={value.explanation}
        onChange={(event) => set('explanation', event.currentTarget.value)}
      />
      {error ? (
        <Group gap={6} id={errorId} c="var(--mantine-color-error)" role="alert">
          <IconAlertCircle size={16} aria-hidden />
          <Text size="sm" fw={600} c="inherit">
            {error}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}

function KeyFields({
  number,
  value,
  onChange,
  kind,
}: {
  number: number;
  value: QuestionFormValues;
  onChange: (value: QuestionFormValues) => void;
  kind: QuestionKind;
}) {
  const { t } = useTranslation();
  if (CHOICE_KINDS.has(kind)) return <OptionListEditor number={number} value={value} onChange={onChange} />;
  if (kind === 'true_false') {
    return (
      <Radio.Group
        label={t('quiz.editor.correctAnswer', { number })}
        value={String(value.true_false_correct)}
        onChange={(next) => onChange({ ...value, true_false_correct: next === 'true' })}
      >
        <Group gap="lg" mt={4}>
          <Radio value="true" label={t('quiz.question.true')} />
          <Radio value="false" label={t('quiz.question.false')} />
        </Group>
      </Radio.Group>
    );
  }
  if (kind === 'short_text') {
    return (
      <Stack gap="xs">
        <SegmentedControl
          aria-label={t('quiz.editor.matchMode', { number })}
          value={value.short_mode}
          onChange={(next) => onChange({ ...value, short_mode: next === 'pattern' ? 'pattern' : 'exact' })}
          data={[
            { value: 'exact', label: t('quiz.editor.exact') },
            { value: 'pattern', label: t('quiz.editor.pattern') },
          ]}
          w="fit-content"
        />
        <TagsInput
          label={t('quiz.editor.accepted', { number })}
          description={
            value.short_mode === 'pattern' ? t('quiz.editor.patternHelp') : t('quiz.editor.acceptedHelp')
          }
          value={value.short_accepted}
          onChange={(next) => onChange({ ...value, short_accepted: next })}
          maxTags={20}
          acceptValueOnBlur
        />
        <Switch
          label={t('quiz.editor.caseSensitive')}
          checked={value.short_case_sensitive}
          onChange={(event) => onChange({ ...value, short_case_sensitive: event.currentTarget.checked })}
        />
      </Stack>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput
        label={t('quiz.editor.numericValue', { number })}
        inputMode="decimal"
        value={value.numeric_value}
        onChange={(event) => onChange({ ...value, numeric_value: event.currentTarget.value })}
        autoComplete="off"
      />
      <TextInput
        label={t('quiz.editor.tolerance', { number })}
        description={t('quiz.editor.toleranceHelp')}
        inputMode="decimal"
        value={value.numeric_tolerance}
        onChange={(event) => onChange({ ...value, numeric_tolerance: event.currentTarget.value })}
        autoComplete="off"
      />
    </SimpleGrid>
  );
}
