import { Checkbox, Radio, Stack } from '@mantine/core';
import type { AnswerValue } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import type { AskedQuestion } from './answers.ts';

/** What every answer control of a question gets: its labels (the question heading and prompt). */
export interface FieldProps {
  question: AskedQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  labelledBy: string;
  describedBy: string;
  invalid: boolean;
  disabled: boolean;
}

/** Single choice: one radio per option. */
export function SingleChoiceField({
  question,
  value,
  onChange,
  labelledBy,
  describedBy,
  invalid,
  disabled,
}: FieldProps) {
  const name = `question-${question.id}`;
  return (
    <Stack
      gap="xs"
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
    >
      {question.options.map((option) => (
        <Radio
          key={option.id}
          name={name}
          value={option.id}
          label={option.text}
          checked={value === option.id}
          disabled={disabled}
          onChange={() => onChange(option.id)}
        />
      ))}
    </Stack>
  );
}

/** Multiple choice: a checkbox per option; the answer lists the ticked ones in the options' order. */
export function MultipleChoiceField({
  question,
  value,
  onChange,
  labelledBy,
  describedBy,
  disabled,
}: FieldProps) {
  const chosen = new Set(Array.isArray(value) ? value : []);
  const toggle = (id: string, checked: boolean) => {
    const next = new Set(chosen);
    if (checked) next.add(id);
    else next.delete(id);
    onChange(question.options.map((option) => option.id).filter((optionId) => next.has(optionId)));
  };
  return (
    <Stack gap="xs" role="group" aria-labelledby={labelledBy} aria-describedby={describedBy}>
      {question.options.map((option) => (
        <Checkbox
          key={option.id}
          value={option.id}
          label={option.text}
          checked={chosen.has(option.id)}
          disabled={disabled}
          onChange={(event) => toggle(option.id, event.currentTarget.checked)}
        />
      ))}
    </Stack>
  );
}

/** True or false: two radios. */
export function TrueFalseField({
  question,
  value,
  onChange,
  labelledBy,
  describedBy,
  invalid,
  disabled,
}: FieldProps) {
  const { t } = useTranslation();
  const name = `question-${question.id}`;
  const choices = [
    { answer: true, label: t('quiz.question.true') },
    { answer: false, label: t('quiz.question.false') },
  ];
  return (
    <Stack
      gap="xs"
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
    >
      {choices.map((choice) => (
        <Radio
          key={String(choice.answer)}
          name={name}
          value={String(choice.answer)}
          label={choice.label}
          checked={value === choice.answer}
          disabled={disabled}
          onChange={() => onChange(choice.answer)}
        />
      ))}
    </Stack>
  );
}
