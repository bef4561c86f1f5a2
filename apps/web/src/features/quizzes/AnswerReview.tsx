import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconCheck,
  IconCircle,
  IconCircleCheck,
  IconCircleCheckFilled,
  IconCircleDot,
  IconCircleX,
  IconX,
} from '@tabler/icons-react';
import type { Question, QuizAnswerView } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { useAnswerText } from './answer-text.ts';
import { choiceMarks, markOf, type Mark, type OptionMark } from './review-marks.ts';
import classes from './AnswerReview.module.css';

/**
 * One question of a submission: the prompt and the answer given; right or wrong and the points once
 * scores are visible; the correct answer and the explanation once answers are (the server sends the
 * key only then). Choice and true/false questions list every option, the chosen and (once visible) the
 * correct ones marked by an icon and a word, never by colour alone.
 */
export function AnswerReview({
  question,
  answer,
  number,
  isMine,
}: {
  question: Question;
  answer: QuizAnswerView | undefined;
  number: number;
  /** The reader's own submission ("Your answer"), or a student's seen by an editor ("Chosen"). */
  isMine: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const text = useAnswerText();
  const headingId = useId();
  const correct = answer?.is_correct ?? null;
  const withKey = question.view === 'review' || question.view === 'editor' ? question : null;
  const answerLabel = isMine ? t('quiz.review.yourAnswer') : t('quiz.review.answer');
  const options = choiceMarks(question, answer?.answer ?? null, withKey?.answer_key ?? null, (value) =>
    value ? t('quiz.question.true') : t('quiz.question.false'),
  );
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
        {options ? (
          <>
            <ul className={classes.options} aria-label={t('quiz.review.options', { number })}>
              {options.map((option) => (
                <OptionRow
                  key={option.id}
                  option={option}
                  chosenLabel={isMine ? t('quiz.review.yourAnswer') : t('quiz.review.chosen')}
                />
              ))}
            </ul>
            {options.every((option) => !option.chosen) ? (
              <Text size="sm">
                <Text span fw={600} size="sm">
                  {answerLabel}:{' '}
                </Text>
                {t('quiz.review.noAnswer')}
              </Text>
            ) : null}
          </>
        ) : (
          <Text size="sm">
            <Text span fw={600} size="sm">
              {answerLabel}:{' '}
            </Text>
            {text.answer(question, answer?.answer)}
          </Text>
        )}
        {withKey ? (
          <>
            {options ? null : (
              <Text size="sm">
                <Text span fw={600} size="sm">
                  {t('quiz.review.correctAnswer')}:{' '}
                </Text>
                {text.key(question, withKey.answer_key)}
              </Text>
            )}
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

/** The icon of each mark says at a glance what the words beside it say. */
const MARK_ICONS: Record<Mark, typeof IconCircle> = {
  right: IconCircleCheckFilled,
  wrong: IconCircleX,
  chosen: IconCircleDot,
  correct: IconCircleCheck,
  none: IconCircle,
};

function OptionRow({ option, chosenLabel }: { option: OptionMark; chosenLabel: string }) {
  const { t } = useTranslation();
  const mark = markOf(option);
  // `data-mark` picks the tint and the icon's colour (AnswerReview.module.css); the badges carry the words.
  const Icon = MARK_ICONS[mark];
  return (
    <li className={classes.option} data-mark={mark} data-chosen={option.chosen || undefined}>
      <Icon size={18} className={classes.icon} aria-hidden />
      <Text size="sm" component="span" className={classes.text}>
        {option.text}
      </Text>
      {option.chosen ? (
        <Badge size="sm" variant="light" color={option.correct === false ? 'red' : 'blue'}>
          {chosenLabel}
        </Badge>
      ) : null}
      {option.correct === true ? (
        <Badge size="sm" variant="light" color="green" leftSection={<IconCheck size={12} aria-hidden />}>
          {t('quiz.review.correctAnswer')}
        </Badge>
      ) : null}
    </li>
  );
}
