import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconFlag, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useSession } from '../auth/session.ts';
import { finalSubmissionQuery } from './submissions.queries.ts';
import { useSelectFinal } from './useSelectFinal.tsx';

type ShownSubmission = Pick<
  Submission,
  'id' | 'assignment_id' | 'course_id' | 'status' | 'is_final' | 'is_reference' | 'user'
>;

/** The final submission of `userId` to the assignment, or null (none marked, or not loaded yet). */
function useFinalSubmission(courseId: number, userId: number | null, assignmentId: number) {
  const query = useQuery({
    ...finalSubmissionQuery(courseId, userId ?? 0, assignmentId),
    enabled: userId !== null,
  });
  // Trusts no more than it must: the list is filtered on is_final, and so is what is read of it.
  return query.data?.results.find((submission) => submission.is_final) ?? null;
}

/** The final submission other than `submission` that counts instead of it, or null. */
function useOtherFinal(submission: ShownSubmission): Submission | null {
  const final = useFinalSubmission(
    submission.course_id,
    // A reference run is never final, and no final submission stands in for it.
    submission.is_reference ? null : submission.user.id,
    submission.assignment_id,
  );
  return final && final.id !== submission.id && !submission.is_final ? final : null;
}

/** The final submission's facts for the sentences: its number and its score with the maximum. */
function finalValues(final: Submission) {
  return { final: final.id, score: final.score ?? '–', max: final.max_score ?? '–' };
}

/**
 * Where the reader submits: once a submission of theirs is marked final it is the one that counts, and
 * a new one counts only when they make it final. Nothing while none is final.
 */
export function FinalSubmissionNotice({
  assignmentId,
  courseId,
}: {
  assignmentId: number;
  courseId: number;
}) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const final = useFinalSubmission(courseId, userId, assignmentId);
  if (!final) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} p="xs">
      <Text size="sm">{t('submissions.final.submitNote', finalValues(final))}</Text>
    </Alert>
  );
}

/**
 * On a submission's result, when another submission of its author is final: this one does not count.
 * Says which one does, links to it, and offers to make this one final once it is graded (`canChoose`:
 * the reader is its author or manages the course). Nothing when this one is final or none is.
 */
export function NotFinalNote({ submission, canChoose }: { submission: ShownSubmission; canChoose: boolean }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const final = useOtherFinal(submission);
  const select = useSelectFinal(submission);
  if (!final) return null;
  const values = { ...finalValues(final), id: submission.id };
  const isAuthor = submission.user.id === userId;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconFlag aria-hidden />}
      title={t('submissions.final.notCountedTitle')}
      p="xs"
    >
      <Stack gap="xs">
        <Text size="sm">
          {t(isAuthor ? 'submissions.final.notCounted' : 'submissions.final.notCountedOther', values)}
        </Text>
        <Group gap="sm" wrap="wrap">
          {!canChoose ? null : submission.status === 'Completed' ? (
            <Button
              size="compact-sm"
              leftSection={<IconFlag size={14} aria-hidden />}
              onClick={select.confirm}
              loading={select.isPending}
            >
              {t('submissions.final.make', { id: submission.id })}
            </Button>
          ) : (
            <Text size="sm">{t('submissions.final.makeLater', { id: submission.id })}</Text>
          )}
          {/* In the alert's own text colour, underlined: blue on the orange alert is too faint. */}
          <Anchor
            component={Link}
            size="sm"
            c="inherit"
            underline="always"
            to={pathTo('SubmissionDetail', { course_id: final.course_id, submission_id: final.id })}
          >
            {t('submissions.final.open', { id: final.id })}
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Whether `NotFinalNote` shows for this submission: it then holds the button to make it final. */
export function useIsNotFinal(submission: ShownSubmission): boolean {
  return useOtherFinal(submission) !== null;
}
