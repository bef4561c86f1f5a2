import { Badge, type BadgeProps } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconCheck,
  IconCircleCheck,
  IconClock,
  IconFileAlert,
  IconHourglass,
  IconPlayerPlay,
  IconX,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_STYLE, type StatusLabel } from './status.ts';

const ICONS: Record<StatusLabel, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  Completed: IconCircleCheck,
  Correct: IconCheck,
  Wrong: IconX,
  Pending: IconClock,
  Scheduled: IconHourglass,
  Executing: IconPlayerPlay,
  InvalidFormat: IconFileAlert,
  InternalError: IconAlertTriangle,
  Canceled: IconBan,
};

/** A status of spec §4 in the reader's language, colour-coded and with an icon. */
export function StatusBadge({ status, size = 'md' }: { status: StatusLabel; size?: BadgeProps['size'] }) {
  const { t } = useTranslation();
  const Icon = ICONS[status];
  return (
    <Badge
      variant="light"
      color={STATUS_STYLE[status].color}
      size={size}
      leftSection={<Icon size={12} aria-hidden />}
      data-status={status}
      style={{ flexShrink: 0 }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
