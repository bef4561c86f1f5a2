import { Badge, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconArrowLeft,
  IconError404,
  IconMail,
  IconMailOpened,
  IconPencil,
  IconPin,
  IconPinnedOff,
  IconSpeakerphone,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ForumRecord } from '@kadai/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { canEditCourse } from '../assignments/permissions.ts';
import { AuthorLine } from './AuthorLine.tsx';
import { CommentList } from './CommentList.tsx';
import {
  deleteForumRecord,
  makeAnnouncement,
  makeDiscussion,
  setReadState,
  updateForumRecord,
} from './forum.api.ts';
import { forumKeys, forumRecordQuery, invalidateForumLists } from './forum.queries.ts';
import { PostAttachments } from './PostAttachments.tsx';
import { PostEditorModal } from './PostEditorModal.tsx';
import { UpvoteControl } from './UpvoteControl.tsx';

function PostNotFound({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={64} ta="center">
      <IconError404 size={72} stroke={1.2} aria-hidden />
      <Title order={1}>{t('forum.detail.notFoundTitle')}</Title>
      <Text>{t('forum.detail.notFound')}</Text>
      <Button component={Link} to={pathTo('Forum', { course_id: courseId })}>
        {t('forum.detail.back')}
      </Button>
    </Stack>
  );
}

/** A topic of the forum: the post, its files, upvotes, read state, comments, and what its writer and managers may do. */
export function ForumDetailPage() {
  const course = useCourse();
  const { forum_record_id } = useParams();
  const id = Number(forum_record_id);
  const valid = Number.isInteger(id) && id > 0;
  const record = useQuery({ ...forumRecordQuery(id), enabled: valid });

  if (!valid || isApiError(record.error, 404)) return <PostNotFound courseId={course.id} />;
  if (record.isError) return <ErrorState error={record.error} onRetry={() => void record.refetch()} />;
  if (!record.data) return <PageLoader />;
  // A comment's address shows nothing of its own: it is read under its topic.
  if (record.data.parent_record !== null || record.data.course_id !== course.id) {
    return <PostNotFound courseId={course.id} />;
  }
  return <TopicView record={record.data} canManage={canEditCourse(course)} />;
}

function TopicView({ record, canManage }: { record: ForumRecord; canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const listPath = pathTo('Forum', { course_id: record.course_id });
  const waiting = record.published_at === null && record.scheduled_at !== null;

  const apply = (saved: ForumRecord) => {
    queryClient.setQueryData(forumKeys.record(saved.id), saved);
    void invalidateForumLists(queryClient, record.course_id);
  };
  const fail = (error: unknown) => notifyError(errorMessage(error, t));

  const readState = useMutation({
    mutationFn: (isRead: boolean) => setReadState(record.id, isRead),
    onSuccess: (state) => {
      queryClient.setQueryData<ForumRecord>(forumKeys.record(record.id), (previous) =>
        previous ? { ...previous, is_read: state.is_read } : previous,
      );
      // The side rail's badge and the Unread tab count from these.
      void invalidateForumLists(queryClient, record.course_id);
    },
    onError: fail,
  });

  // Opening a topic reads it, once per visit: "Mark as unread" afterwards must stay unread.
  const markedOnOpen = useRef<number | null>(null);
  const { mutate: markRead } = readState;
  useEffect(() => {
    if (markedOnOpen.current === record.id) return;
    markedOnOpen.current = record.id;
    if (!record.is_read) markRead(true);
  }, [record.id, record.is_read, markRead]);

  const pin = useMutation({
    mutationFn: () => updateForumRecord(record.id, { pinned: !record.pinned }),
    onSuccess: (saved) => {
      apply(saved);
      notifySuccess(saved.pinned ? t('forum.detail.pinnedDone') : t('forum.detail.unpinnedDone'));
    },
    onError: fail,
  });
  const convert = useMutation({
    mutationFn: () => (record.is_announcement ? makeDiscussion(record.id) : makeAnnouncement(record.id)),
    onSuccess: (saved) => {
      apply(saved);
      notifySuccess(
        saved.is_announcement ? t('forum.detail.nowAnnouncement') : t('forum.detail.nowDiscussion'),
      );
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => deleteForumRecord(record.id),
    onSuccess: () => {
      notifySuccess(t('forum.detail.deleted'));
      void invalidateForumLists(queryClient, record.course_id);
      void navigate(listPath, { replace: true });
      queryClient.removeQueries({ queryKey: forumKeys.record(record.id) });
    },
    onError: fail,
  });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('forum.detail.delete'),
      children: <Text size="sm">{t('common.confirmDelete')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <Stack gap="lg">
      <div>
        <Button
          component={Link}
          to={listPath}
          variant="subtle"
          size="compact-sm"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          {t('forum.detail.back')}
        </Button>
      </div>
      <Paper withBorder p="lg" component="article" aria-labelledby="forum-post-title">
        <Stack gap="md">
          <Stack gap={6}>
            <Group gap="xs" wrap="wrap">
              {record.is_announcement ? (
                <Badge variant="light" leftSection={<IconSpeakerphone size={12} aria-hidden />}>
                  {t('forum.announcement')}
                </Badge>
              ) : (
                <Badge variant="light" color="gray">
                  {t('forum.discussion')}
                </Badge>
              )}
              {record.pinned ? (
                <Badge variant="light" color="orange" leftSection={<IconPin size={12} aria-hidden />}>
                  {t('forum.pinned')}
                </Badge>
              ) : null}
              {waiting && record.scheduled_at ? (
                <Badge variant="light" color="orange">
                  {t('forum.scheduledFor', { time: format.dateTime(record.scheduled_at) })}
                </Badge>
              ) : null}
            </Group>
            <Title order={1} id="forum-post-title" style={{ overflowWrap: 'anywhere' }}>
              {record.title}
            </Title>
            <AuthorLine author={record.author} at={record.published_at ?? record.created_at} />
            <Text size="xs" c="dimmed">
              {t('forum.detail.posted', { time: format.dateTime(record.created_at) })}
              {record.updated_at !== record.created_at
                ? ` · ${t('forum.detail.edited', { time: format.dateTime(record.updated_at) })}`
                : ''}
            </Text>
          </Stack>
          {record.can_edit || canManage ? (
            <Group gap="xs" wrap="wrap" aria-label={t('forum.detail.actions')} role="group">
              {record.can_edit ? (
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconPencil size={14} aria-hidden />}
                  onClick={() => setEditing(true)}
                >
                  {t('forum.detail.edit')}
                </Button>
              ) : null}
              {canManage ? (
                <>
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={
                      record.pinned ? (
                        <IconPinnedOff size={14} aria-hidden />
                      ) : (
                        <IconPin size={14} aria-hidden />
                      )
                    }
                    loading={pin.isPending}
                    onClick={() => pin.mutate()}
                  >
                    {record.pinned ? t('forum.detail.unpin') : t('forum.detail.pin')}
                  </Button>
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconSpeakerphone size={14} aria-hidden />}
                    loading={convert.isPending}
                    onClick={() => convert.mutate()}
                  >
                    {record.is_announcement
                      ? t('forum.detail.toDiscussion')
                      : t('forum.detail.toAnnouncement')}
                  </Button>
                </>
              ) : null}
              {record.can_edit ? (
                <Button
                  variant="outline"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  loading={remove.isPending}
                  onClick={confirmDelete}
                >
                  {t('forum.detail.delete')}
                </Button>
              ) : null}
            </Group>
          ) : null}

          <Markdown source={record.content} />
          <PostAttachments files={record.attachments} />
          <Divider />
          <Group justify="space-between" wrap="wrap">
            <UpvoteControl record={record} courseId={record.course_id} parentId={null} />
            <Button
              variant="subtle"
              size="xs"
              leftSection={
                record.is_read ? <IconMail size={16} aria-hidden /> : <IconMailOpened size={16} aria-hidden />
              }
              loading={readState.isPending}
              onClick={() => readState.mutate(!record.is_read)}
            >
              {record.is_read ? t('forum.detail.markUnread') : t('forum.detail.markRead')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <CommentList topic={record} canManage={canManage} />

      {editing ? (
        <PostEditorModal
          courseId={record.course_id}
          target={{ kind: 'topic', record }}
          canManage={canManage}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </Stack>
  );
}
