import { Anchor, Button, Group, Loader, Text, Title } from '@mantine/core';
import { IconChecks, IconSettings } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Notification } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { NotificationItem } from './NotificationItem.tsx';
import {
  POPOVER_PAGE_SIZE,
  notificationListQuery,
  useMarkAllRead,
  useMarkRead,
} from './notifications.queries.ts';
import classes from './Notifications.module.css';

const NEWEST = { unread: false, page_size: POPOVER_PAGE_SIZE };

/**
 * What the bell opens (loaded with its first opening): the newest notifications, "Mark all as read",
 * and links to the full list and the settings. `onNavigate` closes the bell's popover as a link is
 * followed. `titleId` names the popover.
 */
export function NotificationPanel({ titleId, onNavigate }: { titleId: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  const list = useInfiniteQuery(notificationListQuery(NEWEST));
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const firstPage = list.data?.pages[0];
  const items = firstPage?.results ?? [];
  const unread = firstPage?.unread ?? 0;

  const open = (notification: Notification) => {
    if (notification.read_at === null) markRead.mutate(notification.id);
    onNavigate();
  };

  return (
    <div className={classes.panel}>
      <Group justify="space-between" wrap="nowrap" gap="xs" px="sm" pt="xs" pb={6}>
        <Title order={2} size="h5" id={titleId}>
          {t('notifications.title')}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconChecks size={16} aria-hidden />}
          disabled={unread === 0}
          loading={markAll.isPending}
          onClick={() =>
            markAll.mutate(
              {},
              {
                onError: (error) =>
                  notifyError(errorMessage(error, t), { title: t('notifications.markFailed') }),
              },
            )
          }
        >
          {t('notifications.markAllRead')}
        </Button>
      </Group>
      <div className={classes.scroller}>
        {list.isPending ? (
          <Group justify="center" p="lg">
            <Loader size="sm" aria-label={t('common.loading')} />
          </Group>
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" className={classes.empty}>
            {t('notifications.empty')}
          </Text>
        ) : (
          <ul className={classes.list} aria-labelledby={titleId}>
            {items.map((notification) => (
              <NotificationItem key={notification.id} notification={notification} onOpen={open} />
            ))}
          </ul>
        )}
      </div>
      <Group justify="space-between" wrap="nowrap" gap="xs" px="sm" py="xs" className={classes.footer}>
        <Anchor component={Link} to={pathTo('Notifications')} size="sm" onClick={onNavigate}>
          {t('notifications.all')}
        </Anchor>
        <Anchor
          component={Link}
          to={pathTo('NotificationSettings')}
          size="sm"
          onClick={onNavigate}
          className={classes.settingsLink}
        >
          <IconSettings size={16} aria-hidden />
          {t('notifications.settingsLink')}
        </Anchor>
      </Group>
    </div>
  );
}
