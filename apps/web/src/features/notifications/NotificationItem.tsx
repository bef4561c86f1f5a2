import { Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import type { Notification } from '@kadai/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RelativeTime } from '../forum/RelativeTime.tsx';
import { KIND_LOOK } from './notification-kinds.ts';
import { notificationSentence } from './notification-text.ts';
import classes from './Notifications.module.css';

/**
 * One notification in a list (the bell's and the page's): the kind's icon, what happened in the
 * reader's language, the course and how long ago, a dot while unread. The sentence is a link to what it
 * is about, and the whole row answers a click on it; `onOpen` runs as it is followed (marking it read).
 * `actions` sit at the row's end, above the row's link.
 */
export function NotificationItem({
  notification,
  onOpen,
  actions,
}: {
  notification: Notification;
  onOpen: (notification: Notification) => void;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const look = KIND_LOOK[notification.kind];
  const Icon = look.icon;
  const unread = notification.read_at === null;
  return (
    <li className={classes.item} data-unread={unread || undefined}>
      <ThemeIcon variant="light" color={look.color} radius="xl" size={34} aria-hidden>
        <Icon size={18} />
      </ThemeIcon>
      <div className={classes.body}>
        <Link
          to={notification.link}
          className={classes.link}
          onClick={() => onOpen(notification)}
          // A middle click opens it in a tab of its own: it is read there too.
          onAuxClick={(event) => {
            if (event.button === 1) onOpen(notification);
          }}
        >
          {notificationSentence(notification, t, i18n.language)}
          {unread ? (
            <>
              {' '}
              <VisuallyHidden>({t('notifications.unread')})</VisuallyHidden>
            </>
          ) : null}
        </Link>
        <Text size="xs" c="dimmed" className={classes.meta}>
          {notification.course_title ? (
            <>
              <span className={classes.course}>{notification.course_title}</span>
              <span aria-hidden> · </span>
            </>
          ) : null}
          <RelativeTime iso={notification.created_at} />
        </Text>
      </div>
      {actions ? <div className={classes.actions}>{actions}</div> : null}
      <span className={classes.dot} aria-hidden data-visible={unread || undefined} />
    </li>
  );
}
