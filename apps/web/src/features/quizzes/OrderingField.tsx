import { ActionIcon, Button, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moveItem, orderOf } from './answers.ts';
import type { FieldProps } from './ChoiceFields.tsx';

/**
 * Ordering: the items in a numbered list, each with "move up" and "move down" buttons (no dragging, so
 * keyboards and screen readers work the same as a mouse). Focus stays on the moved item's button and
 * the new position is announced. The order counts as an answer once the student moved an item or
 * chose to keep the order shown.
 */
export function OrderingField({ question, value, onChange, labelledBy, describedBy, disabled }: FieldProps) {
  const { t } = useTranslation();
  const order = orderOf(question, value);
  const isSet = value !== undefined && value !== null;
  const textOf = new Map(question.options.map((option) => [option.id, option.text]));
  const [announcement, setAnnouncement] = useState('');
  /** The move button to focus once the list has re-rendered: "<option id>:up" or ":down". */
  const focusRequest = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const request = focusRequest.current;
    if (request === null) return;
    focusRequest.current = null;
    const button = listRef.current?.querySelector<HTMLButtonElement>(`[data-move="${request}"]`);
    // At either end the pressed direction is disabled: focus the other one so focus is not lost.
    const target =
      button && !button.disabled
        ? button
        : listRef.current?.querySelector<HTMLButtonElement>(
            `[data-move^="${request.split(':')[0]}:"]:not(:disabled)`,
          );
    target?.focus();
  });

  const move = (index: number, delta: -1 | 1) => {
    const id = order[index];
    if (id === undefined) return;
    const next = moveItem(order, index, delta);
    onChange(next);
    setAnnouncement(
      t('quiz.question.moved', {
        item: textOf.get(id) ?? id,
        position: next.indexOf(id) + 1,
        total: next.length,
      }),
    );
    focusRequest.current = `${id}:${delta < 0 ? 'up' : 'down'}`;
  };

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('quiz.question.orderingHelp')}
      </Text>
      <ol
        ref={listRef}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 6 }}
      >
        {order.map((id, index) => {
          const text = textOf.get(id) ?? id;
          return (
            <Paper component="li" key={id} withBorder radius="sm" px="sm" py={6}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap">
                  <Text fw={700} ff="monospace" aria-hidden>
                    {index + 1}.
                  </Text>
                  <Text>
                    <VisuallyHidden>{t('quiz.question.position', { position: index + 1 })} </VisuallyHidden>
                    {text}
                  </Text>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    data-move={`${id}:up`}
                    aria-label={t('quiz.question.moveUp', { item: text })}
                    disabled={disabled || index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    data-move={`${id}:down`}
                    aria-label={t('quiz.question.moveDown', { item: text })}
                    disabled={disabled || index === order.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          );
        })}
      </ol>
      {!isSet && !disabled ? (
        <Group>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconCheck size={14} aria-hidden />}
            onClick={() => {
              onChange(order);
              setAnnouncement(t('quiz.question.orderKept'));
              // The button goes away: focus moves to the list rather than to the page's start.
              if (order[0] !== undefined) focusRequest.current = `${order[0]}:down`;
            }}
          >
            {t('quiz.question.keepOrder')}
          </Button>
        </Group>
      ) : null}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </Stack>
  );
}
