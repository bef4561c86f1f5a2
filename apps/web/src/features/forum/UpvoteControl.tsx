import { Button, Group, List, Loader, Popover, Text } from '@mantine/core';
import { IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { ForumCommentList, ForumRecord, ForumUpvoteState } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { AuthorRoleBadge } from './AuthorLine.tsx';
import { authorName } from './author-name.ts';
import { setUpvote } from './forum.api.ts';
import { forumKeys, invalidateForumLists, upvotersQuery } from './forum.queries.ts';

function applyState<T extends Pick<ForumRecord, 'id' | 'upvotes' | 'upvoted'>>(
  item: T,
  state: ForumUpvoteState,
): T {
  return item.id === state.id ? { ...item, upvotes: state.upvotes, upvoted: state.upvoted } : item;
}

function Upvoters({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const upvoters = useQuery(upvotersQuery(id));
  if (!upvoters.data) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (upvoters.data.count === 0) return <Text size="sm">{t('forum.upvoters.none')}</Text>;
  const more = upvoters.data.count - upvoters.data.results.length;
  return (
    <>
      <List spacing={2} listStyleType="none" p={0} aria-label={t('forum.upvoters.title')}>
        {upvoters.data.results.map((author) => (
          <List.Item key={author.id}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm">{authorName(author, i18n.language)}</Text>
              <AuthorRoleBadge role={author.role} />
            </Group>
          </List.Item>
        ))}
      </List>
      {more > 0 ? (
        <Text size="xs" c="dimmed" mt={4}>
          {t('forum.upvoters.more', { count: more })}
        </Text>
      ) : null}
    </>
  );
}

/** The upvote toggle of a topic or comment, and who upvoted it. */
export function UpvoteControl({
  record,
  courseId,
  parentId,
}: {
  record: Pick<ForumRecord, 'id' | 'upvotes' | 'upvoted'>;
  courseId: number;
  /** The topic, when this is a comment (its list holds the count). */
  parentId: number | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const toggle = useMutation({
    mutationFn: () => setUpvote(record.id, !record.upvoted),
    onSuccess: (state) => {
      if (parentId === null) {
        queryClient.setQueryData<ForumRecord>(forumKeys.record(record.id), (previous) =>
          previous ? applyState(previous, state) : previous,
        );
      } else {
        queryClient.setQueryData<InfiniteData<ForumCommentList>>(forumKeys.comments(parentId), (previous) =>
          previous
            ? {
                ...previous,
                pages: previous.pages.map((page) => ({
                  ...page,
                  results: page.results.map((comment) => applyState(comment, state)),
                })),
              }
            : previous,
        );
      }
      void queryClient.invalidateQueries({ queryKey: forumKeys.upvoters(record.id) });
      void invalidateForumLists(queryClient, courseId);
    },
    onError: (error) => notifyError(errorMessage(error, t)),
  });

  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="xs"
        variant={record.upvoted ? 'light' : 'default'}
        aria-pressed={record.upvoted}
        leftSection={
          record.upvoted ? <IconThumbUpFilled size={16} aria-hidden /> : <IconThumbUp size={16} aria-hidden />
        }
        loading={toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {t('forum.upvote')}
      </Button>
      <Popover opened={open} onChange={setOpen} withArrow position="bottom-start" withinPortal={false}>
        <Popover.Target>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-label={t('forum.upvoters.show', { count: record.upvotes })}
          >
            {format.number(record.upvotes)}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Text size="sm" fw={600} mb={4}>
            {t('forum.upvoters.title')}
          </Text>
          {open ? <Upvoters id={record.id} /> : null}
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
