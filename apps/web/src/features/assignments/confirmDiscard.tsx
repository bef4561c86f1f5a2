import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';

/** 'Sure to discard the changes?' before an editor with unsaved changes closes. */
export function confirmDiscard(t: TFunction, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: t('assignments.editor.discardTitle'),
    children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
    labels: { confirm: t('assignments.editor.discard'), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
