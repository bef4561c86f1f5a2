import { Anchor, Badge, Box, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconMessage, IconPin, IconThumbUp } from '@tabler/icons-react';
import type { ForumRecord } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { AuthorLine } from './AuthorLine.tsx';
import classes from './Forum.module.css';

/**
 * One topic of the list: unread ones in bold with a dot (and "Unread" for screen readers), pinned ones
 * with a pin, a scheduled one with the time it goes out.
 */
export function ForumPostRow({ record, showKind }: { record: ForumRecord; showKind: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const unread = !record.is_read;
  return (
    <li className={classes.row} data-unread={unread || undefined} data-pinned={record.pinned || undefined}>
      <Box className={classes.marker} aria-hidden>
        {unread ? <span className={classes.unreadDot} /> : null}
      </Box>
      <Stack gap={4} className={classes.rowMain}>
        <Group gap={6} wrap="nowrap" align="flex-start">
          {record.pinned ? (
            <Tooltip label={t('forum.pinned')}>
              <IconPin size={18} className={classes.pin} aria-label={t('forum.pinned')} role="img" />
            </Tooltip>
          ) : null}
          <Anchor
            component={Link}
            to={pathTo('ForumDetailInCourse', { course_id: record.course_id, forum_record_id: record.id })}
            fw={unread ? 700 : 500}
            className={classes.title}
            aria-label={unread ? t('forum.list.unreadTitle', { title: record.title }) : undefined}
          >
            {record.title}
          </Anchor>
        </Group>
        <Group gap="xs" wrap="wrap">
          <AuthorLine author={record.author} at={record.published_at ?? record.created_at} />
          {showKind && record.is_announcement ? (
            <Badge size="sm" variant="outline">
              {t('forum.announcement')}
            </Badge>
          ) : null}
          {record.published_at === null && record.scheduled_at !== null ? (
            <Badge size="sm" variant="light" color="orange">
              {t('forum.scheduledFor', { time: format.dateTime(record.scheduled_at) })}
            </Badge>
          ) : null}
        </Group>
      </Stack>
      <Group gap="md" wrap="nowrap" className={classes.counts}>
        <Group gap={4} wrap="nowrap">
          <IconMessage size={16} aria-hidden />
          <Text size="sm" aria-hidden>
            {format.number(record.comment_count)}
          </Text>
          <VisuallyHidden>{t('forum.commentsCount', { count: record.comment_count })}</VisuallyHidden>
        </Group>
        <Group gap={4} wrap="nowrap">
          <IconThumbUp size={16} aria-hidden />
          <Text size="sm" aria-hidden>
            {format.number(record.upvotes)}
          </Text>
          <VisuallyHidden>{t('forum.upvotesCount', { count: record.upvotes })}</VisuallyHidden>
        </Group>
      </Group>
    </li>
  );
}
