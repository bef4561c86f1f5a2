import { Button, Center, EmptyState, Skeleton, Stack, Text } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useFormatters } from '../../i18n/format.ts';
import type { ForumListParams } from './forum.api.ts';
import { forumListQuery } from './forum.queries.ts';
import type { ForumTab } from './forum-tabs.ts';
import { ForumPostRow } from './ForumPostRow.tsx';
import classes from './Forum.module.css';

/** The topics of one tab, pinned first, a page at a time ("Load more"). */
export function ForumPostList({
  params,
  tab,
  filtered,
}: {
  params: ForumListParams;
  tab: ForumTab;
  /** A search or a filter is on: an empty list then says "nothing matches", not "nothing yet". */
  filtered: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const list = useInfiniteQuery(forumListQuery(params));
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const data = useDeferredValue(list.data);

  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!data) {
    return (
      <Stack aria-busy="true" mt="md">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} height={52} />
        ))}
      </Stack>
    );
  }
  const records = data.pages.flatMap((page) => page.results);
  const first = data.pages[0];
  if (records.length === 0) {
    return (
      <EmptyState
        icon={<IconMessages size={32} aria-hidden />}
        withIndicatorBackground
        title={filtered ? t('forum.list.noMatchTitle') : t('forum.list.emptyTitle')}
        description={filtered ? t('forum.list.noMatch') : t(`forum.list.empty.${tab}`)}
        py="xl"
      />
    );
  }
  const count = first?.count ?? records.length;
  return (
    <Stack gap="sm" mt="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {first?.count_exact === false
          ? t('forum.list.countAtLeast', { count: format.number(count) })
          : t('forum.list.count', { count })}
      </Text>
      <ul className={classes.list} aria-label={t('forum.list.label')} aria-busy={list.isFetching}>
        {records.map((record) => (
          <ForumPostRow key={record.id} record={record} showKind={tab === 'unread'} />
        ))}
      </ul>
      {list.hasNextPage ? (
        <Center>
          <Button
            variant="default"
            onClick={() => void list.fetchNextPage()}
            loading={list.isFetchingNextPage}
          >
            {t('forum.list.loadMore')}
          </Button>
        </Center>
      ) : null}
    </Stack>
  );
}
