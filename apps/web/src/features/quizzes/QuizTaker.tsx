import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconClockOff, IconSend } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuizContent } from '@kadai/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { useSession } from '../auth/session.ts';
import { draftKey, toSubmitRequest, unansweredQuestions } from './answers.ts';
import { QuestionCard } from './QuestionCard.tsx';
import { QuizStatusBar } from './QuizStatusBar.tsx';
import { submitQuiz } from './quizzes.api.ts';
import { quizKeys } from './quizzes.queries.ts';
import { remainingMs } from './timer.ts';
import { useQuizAnswers } from './useQuizAnswers.ts';

/**
 * The questions of an open attempt. Answers are kept in sessionStorage as they are given. Submitting
 * with a question unanswered sends nothing: the questions are marked and listed. Otherwise it asks once
 * ("Only allow submitting once…") and hands the answers in; a refusal says why, a network or server
 * failure keeps the answers for another try.
 */
export function QuizTaker({
  quizId,
  courseId,
  content,
}: {
  quizId: number;
  courseId: number;
  content: QuizContent;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = useSession((state) => state.userId);
  const quizCourse = content.quiz_course;
  const questions = content.questions;
  const { answers, setAnswer, clear } = useQuizAnswers(draftKey(userId, quizCourse.id), questions);
  const deadline = quizCourse.time_limit_minutes === null ? null : (content.my_submission?.deadline ?? null);
  const [timeUp, setTimeUp] = useState(() => deadline !== null && remainingMs(deadline, Date.now()) === 0);
  const [marked, setMarked] = useState(false);
  const [failure, setFailure] = useState<{ refused: boolean; message: string } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const unanswered = unansweredQuestions(questions, answers);
  const unansweredSet = new Set(unanswered);
  const numberOf = new Map(questions.map((question, index) => [question.id, index + 1]));

  const submit = useMutation({
    mutationFn: () => submitQuiz(toSubmitRequest(quizCourse.id, questions, answers)),
    onSuccess: async (submission) => {
      clear();
      notifySuccess(t('quiz.submitted'));
      queryClient.removeQueries({ queryKey: quizKeys.content(quizId, courseId) });
      await queryClient.invalidateQueries({ queryKey: quizKeys.all });
      await navigate(
        pathTo('QuizSubmissionDetail', {
          course_id: courseId,
          quiz_id: quizId,
          quiz_submission_id: submission.id,
        }),
      );
    },
    onError: async (error) => {
      if (isApiError(error) && error.status < 500) {
        const reason = errorMessage(error, t);
        setFailure({ refused: true, message: reason });
        // The server counts unanswered questions too (a draft from another tab, say): mark them.
        if (error.body.code === 'unanswered') setMarked(true);
        notifyError(reason, { title: t('quiz.submitFailed') });
        // Already submitted (another tab) or closed: the page shows what is true now.
        if (error.status === 409 || error.status === 403) {
          await queryClient.invalidateQueries({ queryKey: quizKeys.inCourse(quizId, courseId) });
        }
      } else {
        setFailure({ refused: false, message: t('quiz.submissionFailed') });
        notifyError(t('quiz.submissionFailed'));
      }
    },
  });

  const focusQuestion = (id: number) => {
    const section = listRef.current?.querySelector<HTMLElement>(`[data-question="${id}"]`);
    section?.scrollIntoView({ block: 'center' });
    section?.querySelector<HTMLElement>('input:not(:disabled), button:not(:disabled)')?.focus();
  };

  const onSubmit = () => {
    setFailure(null);
    if (unanswered.length > 0) {
      setMarked(true);
      const [first] = unanswered;
      if (first !== undefined) focusQuestion(first);
      return;
    }
    modals.openConfirmModal({
      title: t('quiz.take.confirmTitle'),
      children: <Text size="sm">{t('quiz.submitOnce')}</Text>,
      labels: { confirm: t('common.ok'), cancel: t('common.cancel') },
      onConfirm: () => submit.mutate(),
    });
  };

  const locked = timeUp || submit.isPending;
  return (
    <Stack gap="md">
      <QuizStatusBar
        answered={questions.length - unanswered.length}
        total={questions.length}
        deadline={deadline}
        onExpire={() => setTimeUp(true)}
      />
      {timeUp ? (
        <Alert color="red" icon={<IconClockOff aria-hidden />} title={t('quiz.take.timeUpTitle')}>
          <Text size="sm">{t('quiz.take.timeUp')}</Text>
        </Alert>
      ) : null}
      <Stack gap="md" ref={listRef}>
        {questions.map((question, index) => (
          <QuestionCard
            key={question.id}
            question={question}
            number={index + 1}
            value={answers[question.id]}
            onChange={(value) => setAnswer(question.id, value)}
            unanswered={marked && unansweredSet.has(question.id)}
            disabled={locked}
          />
        ))}
      </Stack>
      {marked && unanswered.length > 0 ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} role="alert">
          <Text size="sm" fw={600}>
            {t('quiz.answerAll')}
          </Text>
          <List size="sm" mt={4}>
            {unanswered.map((id) => (
              <List.Item key={id}>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  c="inherit"
                  underline="always"
                  onClick={() => focusQuestion(id)}
                >
                  {t('quiz.question.heading', { number: numberOf.get(id) ?? 0 })}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {failure ? (
        <Alert
          color="red"
          icon={<IconAlertTriangle aria-hidden />}
          role="alert"
          title={failure.refused ? t('quiz.submitFailed') : undefined}
        >
          <Text size="sm">{failure.message}</Text>
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button
          size="md"
          leftSection={<IconSend size={18} aria-hidden />}
          onClick={onSubmit}
          loading={submit.isPending}
          disabled={timeUp}
        >
          {t('quiz.take.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
