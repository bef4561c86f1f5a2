import { Anchor, Button, Fieldset, FileButton, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPaperclip, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, type AssignmentFile } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { FileList } from '../../ui/FileList.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { deleteAttachment, uploadAttachments } from './assignments.api.ts';
import { assignmentKeys, assignmentQuery } from './assignments.queries.ts';

/**
 * Attachments of an assignment: files given to the students and available to the tests. The limits are
 * shown before choosing, and checked before anything is sent.
 */
export function AttachmentsField({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const detail = useQuery(assignmentQuery(assignmentId, courseId));
  const files = detail.data?.files ?? [];
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignmentId, courseId) });

  const upload = useMutation({
    mutationFn: (chosen: File[]) => uploadAttachments(assignmentId, courseId, chosen),
    onSuccess: (added) => notifySuccess(t('assignments.attachments.uploaded', { count: added.length })),
    onError: (error) =>
      notifyError(errorMessage(error, t), { title: t('assignments.attachments.uploadFailed') }),
    onSettled: refresh,
  });

  const remove = useMutation({
    mutationFn: (file: AssignmentFile) => deleteAttachment(assignmentId, courseId, file.id),
    // What was over the limit may fit now.
    onSuccess: () => setProblem(null),
    onError: (error) =>
      notifyError(errorMessage(error, t), { title: t('assignments.attachments.deleteFailed') }),
    onSettled: refresh,
  });

  // The spec's sentence for editor uploads (the forum's too), then what exactly went over.
  const overLimit = (specifics: string) => setProblem(`${t('forum.uploadLimit')} ${specifics}`);
  const choose = (chosen: File[]) => {
    const tooLarge = chosen.filter((file) => file.size > MAX_ATTACHMENT_BYTES);
    if (tooLarge.length > 0) {
      overLimit(
        t('assignments.attachments.tooLarge', {
          names: tooLarge.map((file) => file.name).join(', '),
          max: format.bytes(MAX_ATTACHMENT_BYTES),
        }),
      );
      return;
    }
    if (files.length + chosen.length > MAX_ATTACHMENTS) {
      overLimit(t('assignments.attachments.tooMany', { max: MAX_ATTACHMENTS }));
      return;
    }
    setProblem(null);
    upload.mutate(chosen);
  };

  const confirmRemove = (file: AssignmentFile) =>
    modals.openConfirmModal({
      title: t('assignments.attachments.delete'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600}>
            {file.filename}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(file),
    });

  return (
    <Fieldset legend={t('assignments.attachments.title')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('assignments.attachments.limits', {
            count: MAX_ATTACHMENTS,
            size: format.bytes(MAX_ATTACHMENT_BYTES),
          })}
        </Text>
        {files.length > 0 ? (
          <FileList
            icon={<IconPaperclip size={16} aria-hidden />}
            removeIcon={<IconTrash size={14} aria-hidden />}
            removeColor="red"
            items={files.map((file) => ({
              key: file.id,
              name: (
                <Anchor href={file.url} target="_blank" rel="noopener noreferrer" size="sm">
                  {file.filename}
                </Anchor>
              ),
              size: file.size,
              removeLabel: t('assignments.attachments.deleteNamed', { name: file.filename }),
              onRemove: () => confirmRemove(file),
            }))}
          />
        ) : (
          <Text size="sm">{t('assignments.attachments.none')}</Text>
        )}
        {problem ? (
          <Text size="sm" c="red" role="alert">
            {problem}
          </Text>
        ) : null}
        <Group>
          <FileButton onChange={choose} multiple>
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconUpload size={16} aria-hidden />}
                loading={upload.isPending}
                disabled={files.length >= MAX_ATTACHMENTS}
              >
                {t('assignments.attachments.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
    </Fieldset>
  );
}
