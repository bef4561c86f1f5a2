import { Button, Group, Kbd } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconPlayerTrackNext } from '@tabler/icons-react';
import type { ReviewQueueRow } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useGradingKeys } from './grading-keys.ts';
import { neighbour, nextUngraded } from './queue-order.ts';

/** Previous and next student in the queue's order (k and j), and the next one not graded yet. */
export function GradingNav({
  rows,
  submissionId,
  onGo,
}: {
  rows: ReviewQueueRow[];
  submissionId: number;
  onGo: (submissionId: number) => void;
}) {
  const { t } = useTranslation();
  const previous = neighbour(rows, submissionId, -1);
  const next = neighbour(rows, submissionId, 1);
  const ungraded = nextUngraded(rows, submissionId);
  useGradingKeys((key) => {
    const target = key === 'j' ? next : key === 'k' ? previous : null;
    if (target === null) return false;
    onGo(target);
    return true;
  });
  return (
    <Group gap="xs" wrap="wrap">
      <Button
        variant="default"
        leftSection={<IconChevronLeft size={16} aria-hidden />}
        rightSection={<Kbd size="xs">k</Kbd>}
        disabled={previous === null}
        onClick={() => previous !== null && onGo(previous)}
      >
        {t('grading.nav.previous')}
      </Button>
      <Button
        variant="default"
        rightSection={
          <Group gap={4} wrap="nowrap">
            <Kbd size="xs">j</Kbd>
            <IconChevronRight size={16} aria-hidden />
          </Group>
        }
        disabled={next === null}
        onClick={() => next !== null && onGo(next)}
      >
        {t('grading.nav.next')}
      </Button>
      <Button
        variant="light"
        leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
        disabled={ungraded === null}
        onClick={() => ungraded !== null && onGo(ungraded)}
      >
        {t('grading.nextUngraded')}
      </Button>
    </Group>
  );
}
