import { Alert, Group, Stack, Switch, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { AnswerKey, AnswerValue } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import { answeredCount } from './answers.ts';
import { useAnswerText } from './answer-text.ts';
import { QuestionCard, type DisplayQuestion } from './QuestionCard.tsx';

export interface PreviewQuestion extends DisplayQuestion {
  answer_key: AnswerKey;
  explanation: string;
}

/**
 * The questions as a student answers them (without shuffling: shuffled options come in a different
 * order for each student), answerable here without sending anything; editors can show the keys.
 */
export function QuizPreview({
  questions,
  headingOrder = 2,
}: {
  questions: readonly PreviewQuestion[];
  headingOrder?: 2 | 3;
}) {
  const { t } = useTranslation();
  const text = useAnswerText();
  const [answers, setAnswers] = useState<Record<number, AnswerValue>>({});
  const [showKeys, setShowKeys] = useState(false);
  return (
    <Stack gap="md">
      <Alert color="blue" icon={<IconEye aria-hidden />} p="xs">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {t('quiz.preview.note', {
              answered: answeredCount(questions, answers),
              total: questions.length,
            })}
          </Text>
          <Switch
            label={t('quiz.preview.showKeys')}
            checked={showKeys}
            onChange={(event) => setShowKeys(event.currentTarget.checked)}
          />
        </Group>
      </Alert>
      {questions.map((question, index) => (
        <QuestionCard
          key={question.id}
          question={question}
          number={index + 1}
          headingOrder={headingOrder}
          value={answers[question.id]}
          onChange={(value) => setAnswers((previous) => ({ ...previous, [question.id]: value }))}
          extra={
            showKeys ? (
              <Stack gap={4}>
                <Text size="sm">
                  <Text span fw={600} size="sm">
                    {t('quiz.review.correctAnswer')}:{' '}
                  </Text>
                  {text.key(question, question.answer_key)}
                </Text>
                {question.explanation.trim() ? <Markdown source={question.explanation} /> : null}
              </Stack>
            ) : null
          }
        />
      ))}
    </Stack>
  );
}
