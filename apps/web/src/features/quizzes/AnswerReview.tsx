import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { Question, QuizAnswerView } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { useAnswerText } from './answer-text.ts';

/**
 * One question of a submission: the prompt and the answer given; right or wrong and the points once
 * scores are visible; the correct answer and the explanation once answers are (the server sends the
 * key only then).
 */
export function AnswerReview({
  question,
  answer,
  number,
  answerLabel,
}: {
  question: Question;
  answer: QuizAnswerView | undefined;
  number: number;
  /** "Your answer" for the student, "Answer" for an editor. */
  answerLabel: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const text = useAnswerText();
  const headingId = useId();
  const correct = answer?.is_correct ?? null;
  const withKey = question.view === 'review' || question.view === 'editor' ? question : null;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby={headingId}
      style={
        correct === null
          ? undefined
          : { borderLeft: `4px solid var(--mantine-color-${correct ? 'green' : 'red'}-filled)` }
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h5" id={headingId}>
            {t('quiz.question.heading', { number })}
          </Title>
          <Group gap={6}>
            {correct !== null ? (
              <Badge
                variant="light"
                color={correct ? 'green' : 'red'}
                leftSection={correct ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}
              >
                {correct ? t('quiz.review.correct') : t('quiz.review.incorrect')}
              </Badge>
            ) : null}
            <Badge variant="light">
              {answer?.points !== null && answer?.points !== undefined
                ? t('quiz.review.pointsOf', {
                    points: format.number(answer.points),
                    count: question.points,
                  })
                : t('quiz.question.points', { count: question.points })}
            </Badge>
          </Group>
        </Group>
        <Markdown source={question.prompt} />
        <Text size="sm">
          <Text span fw={600} size="sm">
            {answerLabel}:{' '}
          </Text>
          {text.answer(question, answer?.answer)}
        </Text>
        {withKey ? (
          <>
            <Text size="sm">
              <Text span fw={600} size="sm">
                {t('quiz.review.correctAnswer')}:{' '}
              </Text>
              {text.key(question, withKey.answer_key)}
            </Text>
            {withKey.explanation.trim() ? (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {t('quiz.review.explanation')}
                </Text>
                <Markdown source={withKey.explanation} />
              </Stack>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
