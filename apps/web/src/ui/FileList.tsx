import { ActionIcon, Group, List, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useFormatters } from '../i18n/format.ts';

/** One row of a FileList: its name (text or a link), its size, and how to take it away. */
export interface FileListItem {
  key: string | number;
  name: ReactNode;
  size: number;
  removeLabel: string;
  onRemove: () => void;
}

/**
 * Files chosen or attached, one row each: an icon, the name, the size, and a button that removes the
 * file (the tray of the forum editor, an assignment's attachments, the files of a submission).
 */
export function FileList({
  items,
  icon,
  removeIcon,
  removeColor,
  label,
}: {
  items: FileListItem[];
  icon: ReactNode;
  removeIcon: ReactNode;
  removeColor: 'red' | 'gray';
  label?: string;
}) {
  const format = useFormatters();
  return (
    <List spacing={4} listStyleType="none" p={0} aria-label={label}>
      {items.map((item) => (
        <List.Item key={item.key}>
          <Group gap="xs" wrap="nowrap">
            {icon}
            {item.name}
            <Text size="xs" c="dimmed">
              {format.bytes(item.size)}
            </Text>
            <ActionIcon
              variant="subtle"
              color={removeColor}
              size="sm"
              onClick={item.onRemove}
              aria-label={item.removeLabel}
            >
              {removeIcon}
            </ActionIcon>
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
