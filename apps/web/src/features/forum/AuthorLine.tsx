import { Badge, Group, Text } from '@mantine/core';
import type { ForumAuthor } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { authorName } from './author-name.ts';
import { RelativeTime } from './RelativeTime.tsx';

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
