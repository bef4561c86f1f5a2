import {
  ActionIcon,
  Anchor,
  Button,
  Center,
  EmptyState,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBell, IconCheck, IconChecks, IconSettings } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Notification } from '@kadai/contracts';
import { useDeferredValue, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { HintTooltip } from '../../ui/HintTooltip.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { NotificationItem } from './NotificationItem.tsx';
import { notificationSentence } from './notification-text.ts';
import {
  PAGE_SIZE,
  notificationListQuery,
  useMarkAllRead,
  useMarkRead,
  useUnreadCount,
} from './notifications.queries.ts';
import classes from './Notifications.module.css';

type Filter = 'all' | 'unread';

/**
 * Every notification of the reader, newest first, 20 at a time ("Load more"); all or only the unread
 * (`?unread=1`, so a reload or a shared link keeps it); each marked read when opened or with its
 * button, or all at once.
 */
export function NotificationsPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter: Filter = searchParams.get('unread') === '1' ? 'unread' : 'all';
  const list = useInfiniteQuery(notificationListQuery({ unread: filter === 'unread', page_size: PAGE_SIZE }));
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const data = useDeferredValue(list.data);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const filterLabel = useId();
  const unreadNow = useUnreadCount();
  const unreadListed = data?.pages[0]?.unread ?? null;

  // The bell's poll found newer ones than the list has: the list is read again.
  const { refetch } = list;
  useEffect(() => {
    if (unreadNow !== null && unreadListed !== null && unreadNow > unreadListed) void refetch();
  }, [unreadNow, unreadListed, refetch]);

  const failed = (error: unknown) =>
    notifyError(errorMessage(error, t), { title: t('notifications.markFailed') });
  const open = (notification: Notification) => {
    if (notification.read_at === null) markRead.mutate(notification.id);
  };
  const chooseFilter = (value: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'unread') next.set('unread', '1');
        else next.delete('unread');
        return next;
      },
      { replace: true },
    );

  const unread = unreadListed ?? unreadNow ?? 0;
  const items = data?.pages.flatMap((page) => page.results) ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1}>{t('routes.notifications')}</Title>
        <Anchor component={Link} to={pathTo('NotificationSettings')} className={classes.settingsLink}>
          <IconSettings size={18} aria-hidden />
          {t('notifications.settingsLink')}
        </Anchor>
      </Group>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="xs" align="center">
          <Text size="sm" fw={500} id={filterLabel}>
            {t('notifications.show')}
          </Text>
          <SegmentedControl
            aria-labelledby={filterLabel}
            value={filter}
            onChange={chooseFilter}
            data={[
              { value: 'all', label: t('notifications.showAll') },
              { value: 'unread', label: t('notifications.showUnread') },
            ]}
          />
        </Group>
        <Button
          variant="default"
          leftSection={<IconChecks size={16} aria-hidden />}
          disabled={unread === 0}
          loading={markAll.isPending}
          onClick={() =>
            markAll.mutate(
              {},
              { onSuccess: () => notifySuccess(t('notifications.allMarked')), onError: failed },
            )
          }
        >
          {t('notifications.markAllRead')}
        </Button>
      </Group>
      {list.isError && !data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !data ? (
        <Stack aria-busy="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={56} />
          ))}
        </Stack>
      ) : items.length === 0 ? (
        <EmptyState
          icon={<IconBell size={32} aria-hidden />}
          withIndicatorBackground
          title={filter === 'unread' ? t('notifications.emptyUnread') : t('notifications.empty')}
          description={t('notifications.emptyHelp')}
          py="xl"
        />
      ) : (
        <Stack gap="sm">
          <ul className={classes.list} aria-label={t('routes.notifications')} aria-busy={list.isFetching}>
            {items.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                onOpen={open}
                actions={
                  notification.read_at === null ? (
                    <MarkReadButton notification={notification} onError={failed} />
                  ) : null
                }
              />
            ))}
          </ul>
          {list.hasNextPage ? (
            <Center>
              <Button
                variant="default"
                onClick={() => void list.fetchNextPage()}
                loading={list.isFetchingNextPage}
              >
                {t('notifications.loadMore')}
              </Button>
            </Center>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

/** "Mark as read" for one, named by what it says (a row of such buttons is told apart by ear). */
function MarkReadButton({
  notification,
  onError,
}: {
  notification: Notification;
  onError: (error: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const markRead = useMarkRead();
  return (
    <HintTooltip label={t('notifications.markRead')}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t('notifications.markReadOf', {
          what: notificationSentence(notification, t, i18n.language),
        })}
        loading={markRead.isPending}
        onClick={() => markRead.mutate(notification.id, { onError })}
      >
        <IconCheck size={18} aria-hidden />
      </ActionIcon>
    </HintTooltip>
  );
}
