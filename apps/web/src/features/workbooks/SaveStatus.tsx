import { Button, Group, Loader, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCloudOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import type { SaveStatus as Status } from './useNotebookDocument.ts';

/**
 * Whether the notebook is saved. Only trouble is announced to screen readers: "Saving… Saved" every
 * few seconds would drown out everything else.
 */
export function SaveStatus({
  status,
  failure,
  onRetry,
}: {
  status: Status;
  failure: unknown;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const trouble =
    status === 'failed' ? errorMessage(failure, t) : status === 'stale' ? t('workbook.save.stale') : '';
  return (
    <Group gap={6} wrap="nowrap">
      {status === 'saving' ? (
        <Loader size={14} aria-hidden />
      ) : status === 'saved' ? (
        <IconCheck size={16} aria-hidden color="var(--mantine-color-teal-text)" />
      ) : (
        <IconCloudOff
          size={16}
          aria-hidden
          color={status === 'unsaved' ? undefined : 'var(--mantine-color-error)'}
        />
      )}
      <Text
        size="sm"
        c={status === 'failed' || status === 'stale' ? 'var(--mantine-color-error)' : 'dimmed'}
        data-testid="save-status"
      >
        {status === 'saving'
          ? t('workbook.save.saving')
          : status === 'saved'
            ? t('workbook.save.saved')
            : t('workbook.save.unsaved')}
      </Text>
      {status === 'failed' ? (
        <Button size="compact-xs" variant="subtle" onClick={onRetry} title={trouble}>
          {t('workbook.save.retry')}
        </Button>
      ) : null}
      <VisuallyHidden role="status">{trouble}</VisuallyHidden>
    </Group>
  );
}
