import { Box, Button, Group, Stack } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuizCourse, QuizCourseUpdate } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import classes from './QuizFacts.module.css';
import { Fact, useReviewText } from './QuizIntro.tsx';
import { updateQuizCourse } from './quizzes.api.ts';
import { quizKeys } from './quizzes.queries.ts';

const isPast = (at: string | null) => at !== null && Date.parse(at) <= Date.now();

/**
 * When students who submitted see their scores and the answers, with "show now" and "hide" for each.
 * Showing the answers shows the scores too: correct answers without the score would only puzzle.
 */
export function ReviewControls({ quizCourse }: { quizCourse: QuizCourse }) {
  const { t } = useTranslation();
  const review = useReviewText();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (body: QuizCourseUpdate) => updateQuizCourse(quizCourse.id, body),
    onSuccess: async () => {
      notifySuccess(t('quiz.reviewControls.saved'));
      await queryClient.invalidateQueries({ queryKey: quizKeys.all });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('quiz.reviewControls.failed') }),
  });
  const scoresShown = isPast(quizCourse.scores_visible_at);
  const answersShown = isPast(quizCourse.answers_visible_at);
  const now = () => new Date().toISOString();

  return (
    <Section title={t('quiz.reviewControls.title')}>
      <Stack gap="sm">
        <Box component="dl" m={0} className={classes.grid}>
          <Fact term={t('quiz.facts.scores')}>{review(quizCourse.scores_visible_at, quizCourse)}</Fact>
          <Fact term={t('quiz.facts.answers')}>{review(quizCourse.answers_visible_at, quizCourse)}</Fact>
        </Box>
        <Group gap="xs">
          {scoresShown ? (
            <Button
              variant="default"
              leftSection={<IconEyeOff size={16} aria-hidden />}
              loading={update.isPending}
              onClick={() =>
                update.mutate({
                  scores_visible_at: null,
                  ...(answersShown ? { answers_visible_at: null } : {}),
                })
              }
            >
              {t('quiz.reviewControls.hideScores')}
            </Button>
          ) : (
            <Button
              variant="default"
              leftSection={<IconEye size={16} aria-hidden />}
              loading={update.isPending}
              onClick={() => update.mutate({ scores_visible_at: now() })}
            >
              {t('quiz.reviewControls.showScores')}
            </Button>
          )}
          {answersShown ? (
            <Button
              variant="default"
              leftSection={<IconEyeOff size={16} aria-hidden />}
              loading={update.isPending}
              onClick={() => update.mutate({ answers_visible_at: null })}
            >
              {t('quiz.reviewControls.hideAnswers')}
            </Button>
          ) : (
            <Button
              variant="default"
              leftSection={<IconEye size={16} aria-hidden />}
              loading={update.isPending}
              onClick={() =>
                update.mutate({
                  answers_visible_at: now(),
                  ...(scoresShown ? {} : { scores_visible_at: now() }),
                })
              }
            >
              {t('quiz.reviewControls.showAnswers')}
            </Button>
          )}
        </Group>
      </Stack>
    </Section>
  );
}
