import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { CELL_TIMEOUT_SECONDS, type WorkbookConfig } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RunNote } from './run-note.ts';

/** The session's own limits (copied from its configuration when it started). */
export type KernelLimits = Pick<WorkbookConfig, 'memory_mb' | 'cpu_seconds'> | null;

/** Why the kernel died, with the configured limit when it is known. */
export function deathMessage(note: Extract<RunNote, { kind: 'dead' }>, limits: KernelLimits, t: TFunction) {
  switch (note.limit) {
    case 'memory':
      return limits
        ? t('workbook.kernel.deadMemory', { memory: limits.memory_mb })
        : t('workbook.kernel.deadMemoryUnknown');
    case 'cpu':
      return limits
        ? t('workbook.kernel.deadCpu', { seconds: limits.cpu_seconds })
        : t('workbook.kernel.deadCpuUnknown');
    case 'wall':
      return t('workbook.kernel.deadWall', { seconds: CELL_TIMEOUT_SECONDS });
    case 'output':
      return t('workbook.kernel.deadOutput');
    case null:
      return t('workbook.kernel.deadUnknown');
  }
}

/** Under a cell: how its last run ended when outputs alone do not say it. */
export function RunNoteAlert({
  note,
  limits,
  canRestart,
  onRestart,
}: {
  note: RunNote;
  limits: KernelLimits;
  canRestart: boolean;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  if (note.kind === 'dead') {
    return (
      <Alert
        color="red"
        role="alert"
        mt="xs"
        title={t('workbook.kernel.deadTitle')}
        icon={<IconAlertTriangle aria-hidden />}
      >
        <Text size="sm">{deathMessage(note, limits, t)}</Text>
        {canRestart ? (
          <Group mt="xs">
            <Button
              size="xs"
              color="red"
              variant="outline"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={onRestart}
            >
              {t('workbook.kernel.restartNow')}
            </Button>
          </Group>
        ) : null}
      </Alert>
    );
  }
  return (
    <Alert color="orange" role="status" mt="xs" py="xs">
      <Text size="sm">
        {note.kind === 'interrupted'
          ? t('workbook.kernel.interrupted', { seconds: CELL_TIMEOUT_SECONDS })
          : note.kind === 'restarted'
            ? t('workbook.kernel.restartedBeforeRun')
            : t('workbook.kernel.truncated')}
      </Text>
    </Alert>
  );
}
