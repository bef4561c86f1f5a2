import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { assignmentKeys } from '../assignments/assignments.queries.ts';
import { selectFinal } from './submissions.api.ts';
import { submissionKeys } from './submissions.queries.ts';

/**
 * Marks a submission final after the reader confirms, then refreshes every submission and assignment
 * query (the badges, the notes about the final submission, the scores that count).
 */
export function useSelectFinal(submission: Pick<Submission, 'id' | 'assignment_id' | 'course_id'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const final = useMutation({
    mutationFn: () => selectFinal(submission.assignment_id, submission.course_id, submission.id),
    onSuccess: async () => {
      notifySuccess(t('submissions.final.done', { id: submission.id }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.all }),
      ]);
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.final.failed') }),
  });
  const confirm = () =>
    modals.openConfirmModal({
      title: t('submissions.final.title'),
      children: <Text size="sm">{t('common.confirmFinalSubmission')}</Text>,
      labels: { confirm: t('common.ok'), cancel: t('common.cancel') },
      onConfirm: () => final.mutate(),
    });
  return { confirm, isPending: final.isPending };
}
