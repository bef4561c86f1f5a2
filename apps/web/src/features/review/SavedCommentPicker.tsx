import { Badge, Group, Paper, Skeleton, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SavedComment } from '@kadai/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { savedCommentsQuery } from './review.queries.ts';

/** Saved comments whose title or body holds `search`, the most used first. */
export function filterSavedComments(comments: readonly SavedComment[], search: string): SavedComment[] {
  const needle = search.normalize('NFKC').trim().toLocaleLowerCase();
  return comments
    .filter((c) => !needle || `${c.title} ${c.body}`.normalize('NFKC').toLocaleLowerCase().includes(needle))
    .sort((a, b) => b.uses - a.uses || a.title.localeCompare(b.title));
}

/**
 * The course's saved comments to insert: type to filter, arrows to move, Enter inserts, Escape closes.
 * A combobox over a list box, so a screen reader follows the active one. Enter pressed while the list
 * still loads (a grader types fast) inserts the first match as soon as it arrives.
 */
export function SavedCommentPicker({
  courseId,
  onPick,
  onClose,
}: {
  courseId: number;
  onPick: (comment: SavedComment) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const list = useQuery(savedCommentsQuery(courseId));
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const shown = filterSavedComments(list.data?.results ?? [], search);
  const current = shown[Math.min(active, shown.length - 1)];
  const [pickWhenLoaded, setPickWhenLoaded] = useState(false);
  // Picking closes the picker, so this runs once.
  useEffect(() => {
    if (pickWhenLoaded && current) onPick(current);
  }, [pickWhenLoaded, current, onPick]);

  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <Paper withBorder p="xs" radius="md">
      <Stack gap={6}>
        <TextInput
          label={t('grading.saved.pick')}
          placeholder={t('grading.saved.filter')}
          value={search}
          data-autofocus
          autoFocus
          role="combobox"
          aria-expanded
          aria-controls={listId}
          aria-activedescendant={current ? `${listId}-${current.id}` : undefined}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setActive(0);
            setPickWhenLoaded(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive((i) => Math.min(i + 1, shown.length - 1));
            else if (event.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
            else if (event.key === 'Enter' && current) onPick(current);
            else if (event.key === 'Enter' && !list.data) setPickWhenLoaded(true);
            else if (event.key === 'Escape') onClose();
            else return;
            event.preventDefault();
            event.stopPropagation();
          }}
        />
        {!list.data ? (
          <Skeleton height={60} aria-busy="true" />
        ) : (
          <Stack
            gap={2}
            role="listbox"
            id={listId}
            aria-label={t('grading.saved.title')}
            mah={240}
            style={{ overflowY: 'auto' }}
          >
            {shown.length === 0 ? (
              <Text size="sm" c="dimmed" px="xs">
                {t('grading.saved.noMatch')}
              </Text>
            ) : null}
            {shown.map((comment) => {
              const selected = comment.id === current?.id;
              return (
                <UnstyledButton
                  key={comment.id}
                  id={`${listId}-${comment.id}`}
                  role="option"
                  aria-selected={selected}
                  tabIndex={-1}
                  px="xs"
                  py={4}
                  style={{
                    borderRadius: 'var(--mantine-radius-sm)',
                    background: selected ? 'var(--mantine-color-blue-light)' : undefined,
                  }}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => onPick(comment)}
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm" fw={600} truncate>
                      {comment.title}
                    </Text>
                    <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                      {t('grading.saved.uses', { count: comment.uses })}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {comment.body}
                  </Text>
                </UnstyledButton>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
