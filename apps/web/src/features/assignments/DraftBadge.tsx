import { Badge, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HintTooltip } from '../../ui/HintTooltip.tsx';

/**
 * "Draft" beside a pytest test case whose module does not collect: it is not run, not counted and not
 * shown to students (docs/grading.md). The tooltip says so to a pointer; the same words are in the badge,
 * hidden, for a screen reader, which a tooltip on a badge that takes no focus never reaches.
 */
export function DraftBadge() {
  const { t } = useTranslation();
  const hint = t('testCases.draftHint');
  return (
    <HintTooltip label={hint} multiline maw={300}>
      <Badge
        variant="light"
        color="orange"
        size="sm"
        leftSection={<IconAlertTriangle size={12} aria-hidden />}
        style={{ flexShrink: 0 }}
      >
        <span>{t('testCases.draft')}</span> <VisuallyHidden>{hint}</VisuallyHidden>
      </Badge>
    </HintTooltip>
  );
}
