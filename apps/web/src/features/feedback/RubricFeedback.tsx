import { Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconCircle, IconCircleCheckFilled } from '@tabler/icons-react';
import type { RegradeRequest, StudentFeedback } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import classes from './Feedback.module.css';
import { RegradeControl, type RegradeTarget } from './RegradeControl.tsx';
import { usePointFormatters } from './points.ts';
import { requestAbout } from './threads.ts';

type Item = StudentFeedback['rubric'][number];

/**
 * The whole rubric, so the student sees what was possible: the items that apply to their work are
 * ticked (an icon, a tint and the words, not colour alone), in the rubric's groups and order.
 */
export function RubricFeedback({
  items,
  requests,
  onAsk,
}: {
  items: readonly Item[];
  requests: readonly RegradeRequest[];
  onAsk: ((target: RegradeTarget) => void) | null;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  const sorted = [...items].sort((a, b) => a.position - b.position);
  const groups = [...new Set(sorted.map((item) => item.group))];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('feedback.rubric.title')}
      </Title>
      {groups.map((group) => (
        <Stack key={group} gap={4}>
          {group ? (
            <Text size="sm" fw={600}>
              {group}
            </Text>
          ) : null}
          <Stack
            component="ul"
            gap={6}
            className={classes.list}
            aria-label={group || t('feedback.rubric.title')}
          >
            {sorted
              .filter((item) => item.group === group)
              .map((item) => (
                <RubricItemRow
                  key={item.id}
                  item={item}
                  request={requestAbout(requests, { rubricItemId: item.id })}
                  onAsk={onAsk}
                />
              ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}

function RubricItemRow({
  item,
  request,
  onAsk,
}: {
  item: Item;
  request: RegradeRequest | undefined;
  onAsk: ((target: RegradeTarget) => void) | null;
}) {
  const { t } = useTranslation();
  const format = usePointFormatters();
  return (
    <li className={item.selected ? `${classes.item} ${classes.ticked}` : classes.item}>
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
            {item.selected ? (
              <IconCircleCheckFilled size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            ) : (
              <IconCircle size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2, opacity: 0.6 }} />
            )}
            <Text size="sm" fw={item.selected ? 700 : 400} style={{ overflowWrap: 'anywhere' }}>
              {item.title}{' '}
              <VisuallyHidden>
                {item.selected ? t('feedback.rubric.applies') : t('feedback.rubric.doesNotApply')}
              </VisuallyHidden>
            </Text>
          </Group>
          <Text size="sm" fw={item.selected ? 700 : 400} style={{ whiteSpace: 'nowrap' }}>
            {format.points(item.points)}
          </Text>
        </Group>
        {item.description ? <Markdown source={item.description} /> : null}
        <RegradeControl
          request={request}
          target={{ about: { rubricItemId: item.id }, name: item.title }}
          onAsk={onAsk}
        />
      </Stack>
    </li>
  );
}
