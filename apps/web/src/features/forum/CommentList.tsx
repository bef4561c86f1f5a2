import {
  ActionIcon,
  Button,
  Center,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForumRecord } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AuthorLine } from './AuthorLine.tsx';
import { deleteForumRecord } from './forum.api.ts';
import { commentsQuery, forumKeys, invalidateForumLists } from './forum.queries.ts';
import { PostAttachments } from './PostAttachments.tsx';
import { PostEditorModal } from './PostEditorModal.tsx';
import { PostForm } from './PostForm.tsx';
import { UpvoteControl } from './UpvoteControl.tsx';
import classes from './Forum.module.css';

function Comment({
  comment,
  topic,
  onEdit,
}: {
  comment: ForumRecord;
  topic: ForumRecord;
  onEdit: (comment: ForumRecord) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteForumRecord(comment.id),
    onSuccess: () => {
      notifySuccess(t('forum.comments.deleted'));
      void queryClient.invalidateQueries({ queryKey: forumKeys.record(topic.id) });
      void invalidateForumLists(queryClient, topic.course_id);
    },
    onError: (error) => notifyError(errorMessage(error, t)),
  });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('forum.comments.delete'),
      children: <Text size="sm">{t('common.confirmDelete')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <li className={classes.comment}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <AuthorLine author={comment.author} at={comment.created_at} />
          {comment.can_edit ? (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('forum.comments.edit')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('forum.comments.edit')}
                  onClick={() => onEdit(comment)}
                >
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('forum.comments.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('forum.comments.delete')}
                  loading={remove.isPending}
                  onClick={confirmDelete}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          ) : null}
        </Group>
        <Markdown source={comment.content} />
        <PostAttachments files={comment.attachments} />
        <UpvoteControl record={comment} courseId={topic.course_id} parentId={topic.id} />
      </Stack>
    </li>
  );
}

/** The comments of a topic, oldest first, a page at a time, and the box to write one. */
export function CommentList({ topic, canManage }: { topic: ForumRecord; canManage: boolean }) {
  const { t } = useTranslation();
  const comments = useInfiniteQuery(commentsQuery(topic.id));
  const [editing, setEditing] = useState<ForumRecord | null>(null);
  // A new key empties the comment box after a comment is sent.
  const [boxKey, setBoxKey] = useState(0);
  const all = comments.data?.pages.flatMap((page) => page.results) ?? [];

  return (
    <Stack gap="md" component="section" aria-labelledby="forum-comments-heading">
      <Title order={2} size="h3" id="forum-comments-heading">
        {t('forum.comments.title', { count: topic.comment_count })}
      </Title>
      {comments.isError ? (
        <ErrorState error={comments.error} onRetry={() => void comments.refetch()} />
      ) : !comments.data ? (
        <Skeleton height={80} />
      ) : all.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('forum.comments.none')}
        </Text>
      ) : (
        <Stack
          component="ul"
          gap="lg"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('forum.comments.list')}
        >
          {all.map((comment) => (
            <Comment key={comment.id} comment={comment} topic={topic} onEdit={setEditing} />
          ))}
        </Stack>
      )}
      {comments.hasNextPage ? (
        <Center>
          <Button
            variant="default"
            onClick={() => void comments.fetchNextPage()}
            loading={comments.isFetchingNextPage}
          >
            {t('forum.comments.loadMore')}
          </Button>
        </Center>
      ) : null}
      <Paper withBorder p="md" component="section" aria-label={t('forum.comments.write')}>
        <PostForm
          key={boxKey}
          courseId={topic.course_id}
          target={{ kind: 'comment', parentId: topic.id, record: null }}
          canManage={canManage}
          onSaved={() => setBoxKey((key) => key + 1)}
        />
      </Paper>
      {editing ? (
        <PostEditorModal
          courseId={topic.course_id}
          target={{ kind: 'comment', parentId: topic.id, record: editing }}
          canManage={canManage}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
