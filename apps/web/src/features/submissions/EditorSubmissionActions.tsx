import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { saveBlob } from '../../ui/download.ts';
import { downloadSubmissionsCsv, regradeAll } from './submissions.api.ts';
import { submissionKeys } from './submissions.queries.ts';

/** Editors: the CSV of an assignment's results (fetched with the session's token) and re-grading it. */
export function EditorSubmissionActions({
  courseId,
  assignmentId,
}: {
  courseId: number;
  assignmentId: number | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const download = useMutation({
    mutationFn: () => downloadSubmissionsCsv(assignmentId, courseId),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `submissions-${assignmentId}-${courseId}.csv`)) {
        notifyError(t('common.downloadDenied'));
      }
    },
    onError: () => notifyError(t('common.downloadFailed')),
  });

  const regrade = useMutation({
    mutationFn: () => regradeAll(assignmentId, courseId),
    onSuccess: async (result) => {
      notifySuccess(t('submissions.regradeAll.done', { count: result.queued }));
      await queryClient.invalidateQueries({ queryKey: submissionKeys.all });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.regradeAll.failed') }),
  });

  const disabled = assignmentId === null;
  return (
    <Group gap="sm" align="center">
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        disabled={disabled}
        loading={download.isPending}
        onClick={() => download.mutate()}
      >
        {t('submissions.csv')}
      </Button>
      <Button
        variant="default"
        leftSection={<IconRefresh size={16} aria-hidden />}
        disabled={disabled}
        loading={regrade.isPending}
        onClick={() =>
          modals.openConfirmModal({
            title: t('submissions.regradeAll.title'),
            children: <Text size="sm">{t('submissions.regradeAll.confirm')}</Text>,
            labels: { confirm: t('submissions.regradeAll.action'), cancel: t('common.cancel') },
            onConfirm: () => regrade.mutate(),
          })
        }
      >
        {t('submissions.regradeAll.action')}
      </Button>
      {disabled ? (
        <Text size="sm" c="dimmed">
          {t('submissions.chooseAssignment')}
        </Text>
      ) : null}
    </Group>
  );
}
