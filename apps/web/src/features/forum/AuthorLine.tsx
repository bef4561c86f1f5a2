import { Badge, Group, Text } from '@mantine/core';
import type { ForumAuthor } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { authorName } from './author-name.ts';
import { relativeTime } from './relative-time.ts';

/** Editors of the course are the course's instructors to its readers; staff are the system's staff. */
export function AuthorRoleBadge({ role }: { role: ForumAuthor['role'] }) {
  const { t } = useTranslation();
  if (role === 'student') return null;
  return (
    <Badge size="sm" variant="light" color={role === 'editor' ? 'blue' : 'grape'}>
      {role === 'editor' ? t('forum.role.instructor') : t('forum.role.staff')}
    </Badge>
  );
}

/** A time as "3 hours ago", with the exact date and time on hover and for screen readers. */
export function RelativeTime({ iso }: { iso: string }) {
  const { i18n } = useTranslation();
  const format = useFormatters();
  const exact = format.dateTime(iso);
  return (
    <time dateTime={iso} title={exact}>
      {relativeTime(iso, i18n.language)}
    </time>
  );
}

/** Who wrote it and when. */
export function AuthorLine({ author, at }: { author: ForumAuthor; at: string }) {
  const { i18n } = useTranslation();
  return (
    <Group gap={6} wrap="wrap">
      <Text size="sm" fw={500}>
        {authorName(author, i18n.language)}
      </Text>
      <AuthorRoleBadge role={author.role} />
      <Text size="sm" c="dimmed">
        <RelativeTime iso={at} />
      </Text>
    </Group>
  );
}
