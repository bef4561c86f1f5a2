import { Badge, Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconChevronDown,
  IconChevronRight,
  IconClock,
  IconPlayerSkipForward,
  IconX,
} from '@tabler/icons-react';
import type { ItemOutcome } from '@kadai/contracts';
import { useId, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { OutputBlock } from '../../ui/OutputBlock.tsx';
import { ITEM_OUTCOME_STYLE, firstFailingItem, type ResultItem } from './test-results.ts';

const ICONS: Record<ItemOutcome, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  passed: IconCheck,
  failed: IconX,
  error: IconAlertTriangle,
  skipped: IconPlayerSkipForward,
  time_limit: IconClock,
};

/**
 * The tests pytest collected from one test file: ✓/✗ (or skip, time) with the name, outcome and points.
 * Full items open to their assertion message (pytest's diff kept as written) and captured output; the
 * first failing one is open to begin with. Hidden items have neither, so there is nothing to open.
 */
export function EvaluationItems({
  items,
  testName,
  maxPoints,
}: {
  items: readonly ResultItem[];
  testName: string;
  /** The test case's points: when the tests' shares add up to another total, the score is scaled. */
  maxPoints: number;
}) {
  const { t } = useTranslation();
  const opened = firstFailingItem(items);
  const shares = items.reduce((sum, item) => sum + item.max_points, 0);
  return (
    <Stack gap={4}>
      <Stack
        component="ul"
        gap={4}
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('submissions.items.label', { name: testName })}
      >
        {items.map((item, index) => (
          // pytest node ids are unique within a file; the index guards against a malformed report.
          <ItemRow key={`${index}-${item.name}`} item={item} defaultOpen={index === opened} />
        ))}
      </Stack>
      {shares !== maxPoints ? (
        <Text size="xs" c="dimmed">
          {t('submissions.items.scaled', { shares, points: maxPoints })}
        </Text>
      ) : null}
    </Stack>
  );
}

function ItemRow({ item, defaultOpen }: { item: ResultItem; defaultOpen: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(defaultOpen);
  const detailsId = useId();
  const Icon = ICONS[item.outcome];
  const color = ITEM_OUTCOME_STYLE[item.outcome].color;
  const details = 'message' in item ? { message: item.message, output: item.output } : null;
  const hasDetails = details !== null && (details.message !== '' || details.output !== '');

  return (
    <li data-outcome={item.outcome}>
      {/* On a phone the outcome, points and Details move under a long name rather than squeezing it. */}
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start" style={{ rowGap: 2 }}>
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 12rem' }}>
          <ThemeIcon variant="light" color={color} size="sm" radius="xl">
            <Icon size={14} aria-hidden />
          </ThemeIcon>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {item.name}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0, marginLeft: 'auto' }}>
          <Badge variant="light" color={color} size="sm" style={{ flexShrink: 0 }}>
            {t(`submissions.items.outcomes.${item.outcome}`)}
          </Badge>
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
            {t('submissions.results.points', { points: item.points, max: item.max_points })}
          </Text>
          {hasDetails ? (
            <Button
              variant="subtle"
              size="compact-xs"
              aria-expanded={open}
              aria-controls={detailsId}
              aria-label={t('submissions.items.detailsOf', { name: item.name })}
              leftSection={
                open ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />
              }
              onClick={() => setOpen((value) => !value)}
            >
              {t('submissions.items.details')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {hasDetails ? (
        // A plain element: the hidden attribute would lose to a flex container's display.
        <div id={detailsId} hidden={!open}>
          <Stack gap="xs" mt="xs" mb="sm" pl="xl">
            {details.message ? (
              <OutputBlock label={t('submissions.items.message')} text={details.message} />
            ) : null}
            {details.output ? (
              <OutputBlock label={t('submissions.items.output')} text={details.output} />
            ) : null}
          </Stack>
        </div>
      ) : null}
    </li>
  );
}
