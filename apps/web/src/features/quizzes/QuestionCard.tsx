import { Badge, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { AnswerValue, QuestionKind } from '@kadai/contracts';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import { parseNumber, type AskedQuestion } from './answers.ts';
import { MultipleChoiceField, SingleChoiceField, TrueFalseField, type FieldProps } from './ChoiceFields.tsx';
import { OrderingField } from './OrderingField.tsx';

/** Text inputs show "not answered" as their own error (Mantine names it in their aria-describedby). */
const TYPED_KINDS: ReadonlySet<QuestionKind> = new Set(['short_text', 'numeric']);

export interface DisplayQuestion extends AskedQuestion {
  prompt: string;
  points: number;
}

/**
 * One question as a student answers it: its number and points, the prompt (Markdown) and the control of
 * its kind, named by the heading and described by the prompt. `unanswered` marks it after a refused
 * submit.
 */
export function QuestionCard({
  question,
  number,
  value,
  onChange,
  unanswered = false,
  disabled = false,
  headingOrder = 2,
  extra,
}: {
  question: DisplayQuestion;
  number: number;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  unanswered?: boolean;
  disabled?: boolean;
  headingOrder?: 2 | 3;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const promptId = useId();
  const errorId = useId();
  const field: FieldProps = {
    question,
    value,
    onChange,
    labelledBy: headingId,
    describedBy: unanswered ? `${promptId} ${errorId}` : promptId,
    invalid: unanswered,
    disabled,
  };
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby={headingId}
      data-question={question.id}
      data-unanswered={unanswered || undefined}
      style={{
        // Scrolled to (or tabbed into), a question stays clear of the header and the sticky status bar.
        scrollMarginTop: 'calc(var(--app-shell-header-offset, 0px) + 96px)',
        ...(unanswered ? { borderColor: 'var(--mantine-color-error)', borderWidth: 2 } : {}),
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={headingOrder} size="h5" id={headingId}>
            {t('quiz.question.heading', { number })}
          </Title>
          <Group gap={6}>
            <Badge variant="light" color="gray">
              {t(`quiz.kinds.${question.kind}`)}
            </Badge>
            <Badge variant="light">{t('quiz.question.points', { count: question.points })}</Badge>
          </Group>
        </Group>
        <div id={promptId}>
          <Markdown source={question.prompt} />
        </div>
        <AnswerControl field={field} number={number} />
        {unanswered && !TYPED_KINDS.has(question.kind) ? (
          <Group gap={6} id={errorId} c="var(--mantine-color-error)">
            <IconAlertCircle size={16} aria-hidden />
            <Text size="sm" fw={600} c="inherit">
              {t('quiz.question.unanswered')}
            </Text>
          </Group>
        ) : null}
        {extra}
      </Stack>
    </Paper>
  );
}

function AnswerControl({ field, number }: { field: FieldProps; number: number }) {
  switch (field.question.kind) {
    case 'single':
      return <SingleChoiceField {...field} />;
    case 'multiple':
      return <MultipleChoiceField {...field} />;
    case 'true_false':
      return <TrueFalseField {...field} />;
    case 'ordering':
      return <OrderingField {...field} />;
    case 'short_text':
      return <ShortTextField field={field} number={number} />;
    case 'numeric':
      return <NumericField field={field} number={number} />;
  }
}

function ShortTextField({ field, number }: { field: FieldProps; number: number }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('quiz.question.answerLabel', { number })}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      error={field.invalid ? t('quiz.question.unanswered') : undefined}
      disabled={field.disabled}
      maxLength={500}
      autoComplete="off"
      maw={480}
    />
  );
}

/** A number as typed: the text stays as the student wrote it; the answer is the number it reads as. */
function NumericField({ field, number }: { field: FieldProps; number: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState(typeof field.value === 'number' ? String(field.value) : '');
  const notANumber = text.trim() !== '' && parseNumber(text) === null;
  return (
    <TextInput
      label={t('quiz.question.numberLabel', { number })}
      description={t('quiz.question.numberHelp')}
      inputMode="decimal"
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        field.onChange(parseNumber(event.currentTarget.value));
      }}
      error={
        notANumber ? t('quiz.question.notANumber') : field.invalid ? t('quiz.question.unanswered') : undefined
      }
      disabled={field.disabled}
      autoComplete="off"
      maw={360}
    />
  );
}
