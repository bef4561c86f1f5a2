import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { MAX_COMMENT_LENGTH, type Review, type ReviewComment } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { notifyError } from '../../ui/notify.ts';
import { useSession } from '../auth/session.ts';
import { memberName } from '../courses/member-name.ts';
import { useCommentMutations } from './review.queries.ts';
import { threadElementId } from './thread-gutter.ts';
import { useLinesLabel } from './useLinesLabel.ts';

/** The threads on one file, by their first line; each with its replies and a reply form. */
export function CommentThreads({ review, threads }: { review: Review; threads: ReviewComment[] }) {
  const { t } = useTranslation();
  const linesLabel = useLinesLabel();
  if (threads.length === 0) return null;
  const sorted = [...threads].sort((a, b) => a.line_start - b.line_start || a.id - b.id);
  return (
    <Stack
      gap="xs"
      component="ul"
      aria-label={t('grading.comment.threads')}
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {sorted.map((thread) => (
        <Paper
          key={thread.id}
          component="li"
          id={threadElementId(thread.id)}
          tabIndex={-1}
          aria-label={linesLabel({ start: thread.line_start, end: thread.line_end })}
          withBorder
          p="sm"
          radius="md"
        >
          <Stack gap="xs">
            <Group gap="xs">
              <Badge variant="light">{linesLabel({ start: thread.line_start, end: thread.line_end })}</Badge>
              {thread.rubric_item_id !== null ? (
                <Text size="xs" c="dimmed">
                  {review.rubric.items.find((item) => item.id === thread.rubric_item_id)?.title ?? ''}
                </Text>
              ) : null}
            </Group>
            <CommentView review={review} comment={thread} />
            {review.comments
              .filter((reply) => reply.parent_id === thread.id)
              .map((reply) => (
                <div key={reply.id} style={{ paddingLeft: 'var(--mantine-spacing-md)' }}>
                  <CommentView review={review} comment={reply} />
                </div>
              ))}
            <ReplyForm review={review} thread={thread} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function CommentView({ review, comment }: { review: Review; comment: ReviewComment }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const userId = useSession((s) => s.userId);
  const { edit, remove } = useCommentMutations(review.submission_id, review.course_id);
  const [draft, setDraft] = useState<string | null>(null);
  const isOwn = comment.author !== null && comment.author.id === userId;
  const author = comment.author
    ? memberName(comment.author, i18n.language)
    : t('grading.comment.unknownAuthor');

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('grading.comment.deleteTitle'),
      children: (
        <Text size="sm">
          {comment.parent_id === null ? t('grading.comment.deleteThread') : t('grading.comment.deleteReply')}
        </Text>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(comment.id, { onError: (e) => notifyError(errorMessage(e, t)) }),
    });

  return (
    <Stack gap={4}>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {t('grading.comment.byline', { name: author, when: format.dateTime(comment.created_at) })}
          {comment.by_student ? ` · ${t('grading.comment.student')}` : ''}
        </Text>
        {draft === null ? (
          <Group gap={4}>
            {isOwn ? (
              <Button size="compact-xs" variant="subtle" onClick={() => setDraft(comment.body)}>
                {t('grading.comment.edit')}
              </Button>
            ) : null}
            <Button size="compact-xs" variant="subtle" color="red" onClick={confirmDelete}>
              {t('common.delete')}
            </Button>
          </Group>
        ) : null}
      </Group>
      {draft === null ? (
        <Markdown source={comment.body} />
      ) : (
        <Stack gap={4}>
          <Textarea
            label={t('grading.comment.editLabel')}
            autosize
            minRows={2}
            maxLength={MAX_COMMENT_LENGTH}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
          />
          <Group gap="xs" justify="flex-end">
            <Button size="xs" variant="default" onClick={() => setDraft(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              size="xs"
              loading={edit.isPending}
              disabled={!draft.trim()}
              onClick={() =>
                edit.mutate(
                  { id: comment.id, body: draft.trim() },
                  { onSuccess: () => setDraft(null), onError: (e) => notifyError(errorMessage(e, t)) },
                )
              }
            >
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

function ReplyForm({ review, thread }: { review: Review; thread: ReviewComment }) {
  const { t } = useTranslation();
  const { reply } = useCommentMutations(review.submission_id, review.course_id);
  const [body, setBody] = useState('');
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Group>
        <Button size="compact-sm" variant="light" onClick={() => setOpen(true)}>
          {t('grading.comment.reply')}
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap={4}>
      <Textarea
        label={t('grading.comment.replyLabel')}
        autosize
        minRows={2}
        maxLength={MAX_COMMENT_LENGTH}
        autoFocus
        value={body}
        onChange={(event) => setBody(event.currentTarget.value)}
      />
      <Group gap="xs" justify="flex-end">
        <Button size="xs" variant="default" onClick={() => setOpen(false)}>
          {t('common.cancel')}
        </Button>
        <Button
          size="xs"
          loading={reply.isPending}
          disabled={!body.trim()}
          onClick={() =>
            reply.mutate(
              { id: thread.id, body: body.trim() },
              {
                onSuccess: () => {
                  setBody('');
                  setOpen(false);
                },
                onError: (e) => notifyError(errorMessage(e, t)),
              },
            )
          }
        >
          {t('grading.comment.send')}
        </Button>
      </Group>
    </Stack>
  );
}
