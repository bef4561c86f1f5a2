import { ActionIcon, Group, NumberInput, Paper, Stack, TextInput, Textarea } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DraftItem } from './rubric-form.ts';

/** One item of the rubric editor: group, title, points (negative: a deduction), description, and moves. */
export function RubricItemEditor({
  item,
  position,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  item: DraftItem;
  position: number;
  count: number;
  onChange: (item: DraftItem) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const name = item.title.trim() || t('grading.rubricEditor.itemNumber', { number: position + 1 });
  return (
    <Paper withBorder p="sm" radius="md" component="li">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label={t('grading.rubricEditor.group')}
            value={item.group}
            maxLength={100}
            w={160}
            onChange={(event) => onChange({ ...item, group: event.currentTarget.value })}
          />
          <TextInput
            label={t('grading.rubricEditor.itemTitle')}
            value={item.title}
            maxLength={200}
            required
            style={{ flex: 1, minWidth: 180 }}
            onChange={(event) => onChange({ ...item, title: event.currentTarget.value })}
          />
          <NumberInput
            label={t('grading.rubricEditor.points')}
            description={t('grading.rubricEditor.pointsHint')}
            value={item.points}
            decimalScale={2}
            min={-1000}
            max={1000}
            w={120}
            onChange={(value) => onChange({ ...item, points: typeof value === 'number' ? value : 0 })}
          />
          <Group gap={4}>
            <ActionIcon
              variant="default"
              size="lg"
              disabled={position === 0}
              onClick={() => onMove(-1)}
              aria-label={t('grading.rubricEditor.up', { name })}
            >
              <IconArrowUp size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              disabled={position === count - 1}
              onClick={() => onMove(1)}
              aria-label={t('grading.rubricEditor.down', { name })}
            >
              <IconArrowDown size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="light"
              color="red"
              size="lg"
              onClick={onRemove}
              aria-label={t('grading.rubricEditor.remove', { name })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        </Group>
        <Textarea
          label={t('grading.rubricEditor.description')}
          description={t('grading.markdownHint')}
          autosize
          minRows={1}
          maxLength={2000}
          value={item.description}
          onChange={(event) => onChange({ ...item, description: event.currentTarget.value })}
        />
      </Stack>
    </Paper>
  );
}
