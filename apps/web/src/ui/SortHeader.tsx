import { Group, Table, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';

export interface SortState<K extends string> {
  key: K;
  direction: 'ascending' | 'descending';
}

/**
 * A column header that sorts by its column; `aria-sort` tells which one sorts the table, and how.
 * `title` says what pressing it does ("Sort by Total"), in the caller's words. `hint`, when given, is
 * shown instead in a tooltip that a keyboard's focus opens as well as a pointer (a native title is
 * mouse-only): for a header whose text is clamped, its whole text.
 */
export function SortHeader<K extends string>({
  sortKey,
  sort,
  onSort,
  title,
  hint,
  className,
  style,
  children,
}: {
  sortKey: K;
  sort: SortState<K>;
  onSort: (key: K) => void;
  title: string;
  hint?: string;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  const active = sort.key === sortKey;
  const Icon = !active ? IconArrowsSort : sort.direction === 'ascending' ? IconArrowUp : IconArrowDown;
  const button = (
    <UnstyledButton onClick={() => onSort(sortKey)} title={hint === undefined ? title : undefined}>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <div>{children}</div>
        <Icon size={14} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
      </Group>
    </UnstyledButton>
  );
  return (
    <Table.Th scope="col" aria-sort={active ? sort.direction : undefined} className={className} style={style}>
      {hint === undefined ? (
        button
      ) : (
        <Tooltip label={hint} events={{ hover: true, focus: true, touch: true }} multiline maw={320}>
          {button}
        </Tooltip>
      )}
    </Table.Th>
  );
}
