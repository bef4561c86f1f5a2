import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { useFeedbackMutations } from './feedback.api.ts';
import type { RegradeTarget } from './RegradeControl.tsx';

const MAX_REASON = 2000;

/**
 * Asks an editor to grade a rubric item or a comment again, with a reason. A refusal (asked before, or
 * the review was taken back) stays in the dialog in words, so the student sees why nothing was sent.
 * `target` null: closed.
 */
export function RegradeDialog({
  submissionId,
  target,
  onClose,
}: {
  submissionId: number;
  target: RegradeTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={target !== null} onClose={onClose} title={t('feedback.regrade.title')}>
      {target ? <RegradeForm submissionId={submissionId} target={target} onClose={onClose} /> : null}
    </Modal>
  );
}

function RegradeForm({
  submissionId,
  target,
  onClose,
}: {
  submissionId: number;
  target: RegradeTarget;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { regrade } = useFeedbackMutations(submissionId);
  const [refusal, setRefusal] = useState<{ message: string; isFinal: boolean } | null>(null);
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });

  const submit = form.handleSubmit(async ({ reason }) => {
    setRefusal(null);
    const about =
      'rubricItemId' in target.about
        ? { rubric_item_id: target.about.rubricItemId, comment_id: null }
        : { rubric_item_id: null, comment_id: target.about.commentId };
    try {
      await regrade.mutateAsync({ ...about, reason: reason.trim() });
      notifySuccess(t('feedback.regrade.sent'));
      onClose();
    } catch (error) {
      // Asked before, or not (or no longer) released: sending again cannot help; a network error may.
      setRefusal({
        message: errorMessage(error, t),
        isFinal: isApiError(error, 409) || isApiError(error, 403),
      });
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <Text size="sm">{t('feedback.regrade.about', { name: target.name })}</Text>
        <Textarea
          label={t('feedback.regrade.reason')}
          description={t('feedback.regrade.reasonHint')}
          required
          autosize
          minRows={3}
          maxLength={MAX_REASON}
          data-autofocus
          error={form.formState.errors.reason?.message}
          {...form.register('reason', {
            validate: (value) => value.trim() !== '' || t('feedback.regrade.reasonRequired'),
          })}
        />
        {refusal ? (
          <Alert color="red" role="alert" title={t('feedback.regrade.failed')}>
            {refusal.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {refusal?.isFinal ? t('common.close') : t('common.cancel')}
          </Button>
          <Button type="submit" loading={regrade.isPending} disabled={refusal?.isFinal}>
            {t('feedback.regrade.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
