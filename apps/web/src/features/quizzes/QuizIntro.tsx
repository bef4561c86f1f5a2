import { Badge, Box, Group, Text } from '@mantine/core';
import type { QuizCourse, QuizInCourse, QuizState } from '@kadai/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { Section } from '../../ui/Section.tsx';
import { Deadline } from '../../ui/Deadline.tsx';
import { ExtendedBadge } from '../extensions/ExtendedBadge.tsx';
import classes from './QuizFacts.module.css';

const STATE_COLORS: Record<QuizState, string> = { upcoming: 'blue', open: 'green', closed: 'gray' };

/** Open, upcoming or closed in this course (as the server computed it). */
export function QuizStateBadge({ state }: { state: QuizState }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATE_COLORS[state]} style={{ flexShrink: 0 }}>
      {t(`quiz.state.${state}`)}
    </Badge>
  );
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className={classes.fact}>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" size="sm" fw={500}>
        {children}
      </Text>
    </div>
  );
}

/** "30 minutes" or "No time limit". */
export function useTimeLimitText() {
  const { t } = useTranslation();
  return (minutes: number | null) =>
    minutes === null ? t('quiz.facts.noTimeLimit') : t('quiz.facts.minutes', { count: minutes });
}

/** When a student sees scores or answers, as a sentence. */
export function useReviewText() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (at: string | null, quizCourse: Pick<QuizCourse, 'opens_at' | 'closes_at'>) => {
    if (at === null) return t('quiz.facts.reviewNotYet');
    if (Date.parse(at) <= Date.parse(quizCourse.opens_at)) return t('quiz.facts.reviewAfterSubmission');
    if (Date.parse(at) === Date.parse(quizCourse.closes_at)) return t('quiz.facts.reviewAfterClosing');
    return t('quiz.facts.reviewFrom', { date: format.deadline(at) });
  };
}

/** The facts of a quiz in this course: window in the reader's time zone, limit, size and review. */
export function QuizFacts({ detail }: { detail: QuizInCourse }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const timeLimit = useTimeLimitText();
  const review = useReviewText();
  const quizCourse = detail.quiz_course;
  return (
    <Section title={t('quiz.facts.title')}>
      <Box component="dl" m={0} className={classes.grid}>
        <Fact term={t('quiz.facts.opens')}>
          <Deadline at={quizCourse.opens_at} />
        </Fact>
        <Fact term={t('quiz.facts.closes')}>
          <Group gap={6} component="span">
            <Deadline at={quizCourse.closes_at} />
            <ExtendedBadge extended={quizCourse.extended} />
          </Group>
        </Fact>
        <Fact term={t('quiz.facts.timeLimit')}>{timeLimit(quizCourse.time_limit_minutes)}</Fact>
        <Fact term={t('quiz.facts.size')}>
          {t('quiz.facts.questionsAndPoints', {
            count: detail.question_count,
            points: format.number(detail.total_points),
          })}
        </Fact>
        <Fact term={t('quiz.facts.scores')}>{review(quizCourse.scores_visible_at, quizCourse)}</Fact>
        <Fact term={t('quiz.facts.answers')}>{review(quizCourse.answers_visible_at, quizCourse)}</Fact>
      </Box>
    </Section>
  );
}

/** The quiz's description (Markdown), if it has one. */
export function QuizDescription({ description }: { description: string }) {
  const { t } = useTranslation();
  if (!description.trim()) return null;
  return (
    <Section title={t('quiz.facts.description')}>
      <Markdown source={description} />
    </Section>
  );
}
