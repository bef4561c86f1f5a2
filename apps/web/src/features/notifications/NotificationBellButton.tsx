import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from './notifications.queries.ts';

type ButtonProps = Omit<ComponentPropsWithRef<'button'>, 'color' | 'children'>;

/** The badge's text: the count, or "99+" beyond what fits. */
export function unreadBadge(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The header's bell: its face, with the unread count (polled: `useUnreadCount`) as a badge, hidden at
 * zero. The header shows it as a stand-in until its list has loaded (NotificationBell.tsx wraps it),
 * like the other header controls, so it counts from the first screen.
 */
export function NotificationBellButton(props: ButtonProps) {
  const { t } = useTranslation();
  const unread = useUnreadCount() ?? 0;
  return (
    <Indicator
      label={<span aria-hidden>{unreadBadge(unread)}</span>}
      size={18}
      offset={7}
      color="red"
      disabled={unread === 0}
      inline
      styles={{ indicator: { fontSize: 11, fontWeight: 700, paddingInline: 4 } }}
    >
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={unread === 0 ? t('notifications.bell') : t('notifications.bellUnread', { count: unread })}
        {...props}
      >
        <IconBell size={20} aria-hidden />
      </ActionIcon>
    </Indicator>
  );
}
