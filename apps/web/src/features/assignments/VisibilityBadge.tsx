import { Badge } from '@mantine/core';
import { IconEye, IconEyeOff, IconClockHour4 } from '@tabler/icons-react';
import type { Visibility } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';

const STYLE = {
  visible: { color: 'teal', Icon: IconEye },
  hidden: { color: 'gray', Icon: IconEyeOff },
  after_due: { color: 'blue', Icon: IconClockHour4 },
} as const;

/**
 * Visible, hidden, or visible after the due date. `muted`: grey whatever it says — a draft's, which no
 * student sees until it runs, must not look like a test students see.
 */
export function VisibilityBadge({ visibility, muted = false }: { visibility: Visibility; muted?: boolean }) {
  const { t } = useTranslation();
  const { color, Icon } = STYLE[visibility];
  return (
    <Badge
      variant="light"
      color={muted ? 'gray' : color}
      leftSection={<Icon size={12} aria-hidden />}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(`assignments.visibility.${visibility}`)}
    </Badge>
  );
}
