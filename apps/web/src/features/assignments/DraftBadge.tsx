import { Badge, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * "Draft" beside a pytest test case whose module does not collect: it is not run, not counted and not
 * shown to students (docs/grading.md). Never cut short: it keeps its own width wherever it wraps.
 */
export function DraftBadge() {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color="orange"
      size="sm"
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t('testCases.draft')}
    </Badge>
  );
}

/**
 * What a draft means, as text anyone can read — a tooltip would reach neither a finger nor a screen
 * reader: shown under a draft's name wherever the badge is.
 */
export function DraftNote() {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed">
      {t('testCases.draftHint')}
    </Text>
  );
}
