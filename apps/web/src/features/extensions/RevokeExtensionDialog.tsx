import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { Extension } from '@kadai/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import { useExtensionMutations } from './extensions.api.ts';

/**
 * Takes one student's extension away. Like a grant it asks why: the reason goes into the audit row of
 * the revocation itself, so the log says why the dates went back, not again why they were given.
 * `extension` null: closed.
 */
export function RevokeExtensionDialog({
  courseId,
  extension,
  onClose,
}: {
  courseId: number;
  extension: Extension | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={extension !== null} onClose={onClose} title={t('extensions.revokeTitle')}>
      {extension ? <RevokeForm courseId={courseId} extension={extension} onClose={onClose} /> : null}
    </Modal>
  );
}

function RevokeForm({
  courseId,
  extension,
  onClose,
}: {
  courseId: number;
  extension: Extension;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { revoke } = useExtensionMutations(courseId);
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const name = memberName(extension.user, i18n.language);

  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await revoke.mutateAsync({
        target: { kind: extension.kind, item_id: extension.item_id, user_id: extension.user.id },
        reason: reason.trim(),
      });
      notifySuccess(t('extensions.revoked'));
      onClose();
    } catch (error) {
      notifyError(errorMessage(error, t), { title: t('extensions.revokeFailed') });
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack>
        <Text size="sm">{t('extensions.revokeConfirm', { name, title: extension.item_title })}</Text>
        <Textarea
          label={t('extensions.dialog.reason')}
          description={t('extensions.dialog.reasonHint')}
          required
          autosize
          minRows={2}
          maxLength={500}
          data-autofocus
          error={form.formState.errors.reason?.message}
          {...form.register('reason', {
            validate: (value) => value.trim() !== '' || t('extensions.dialog.reasonRequired'),
          })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color="red" loading={revoke.isPending}>
            {t('extensions.revoke')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
