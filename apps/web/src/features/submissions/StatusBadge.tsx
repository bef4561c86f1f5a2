import { Badge, type BadgeProps } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconCheck,
  IconCircleCheck,
  IconCircleX,
  IconClock,
  IconFileAlert,
  IconHourglass,
  IconPlayerPlay,
  IconX,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_STYLE, type StatusLabel } from './status.ts';
import { OUTCOME_COLOR, scoreOutcome, type Outcome } from './test-results.ts';

type BadgeIcon = ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;

const ICONS: Record<StatusLabel, BadgeIcon> = {
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

/** The same icons as `ResultOutcome`: full marks, some points, none. */
const OUTCOME_ICONS: Record<Outcome, BadgeIcon> = {
  all: IconCircleCheck,
  some: IconAlertTriangle,
  none: IconCircleX,
};

/**
 * A status of spec §4 in the reader's language, with an icon. A graded (Completed) submission whose
 * score is given is coloured by how it did — green at full marks, orange with some points, red with none
 * — with the outcome's own icon; every other state keeps its own colour (docs/web.md, "Status labels").
 */
export function StatusBadge({
  status,
  size = 'md',
  score,
  max,
}: {
  status: StatusLabel;
  size?: BadgeProps['size'];
  /** The submission's score and maximum, when it is one submission's badge. */
  score?: number | null;
  max?: number | null;
}) {
  const { t } = useTranslation();
  const outcome = scoreOutcome(status, score, max);
  const Icon = outcome ? OUTCOME_ICONS[outcome] : ICONS[status];
  return (
    <Badge
      variant="light"
      color={outcome ? OUTCOME_COLOR[outcome] : STATUS_STYLE[status].color}
      size={size}
      leftSection={<Icon size={12} aria-hidden />}
      data-status={status}
      data-outcome={outcome ?? undefined}
      style={{ flexShrink: 0 }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
