import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { MAX_COMMENT_LENGTH, type RegradeRequest, type ReviewComment } from '@kadai/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { memberName } from '../courses/member-name.ts';
import { useFeedbackMutations } from './feedback.api.ts';
import classes from './Feedback.module.css';
import { RegradeControl, type RegradeTarget } from './RegradeControl.tsx';
import { requestAbout, type Thread } from './threads.ts';

/** Where a thread is: "Line 2" or "Lines 2–4". */
export function useLinesLabel() {
  const { t } = useTranslation();
  return (thread: Thread) =>
    thread.root.line_start === thread.root.line_end
      ? t('feedback.code.line', { line: thread.root.line_start })
      : t('feedback.code.lineRange', { from: thread.root.line_start, to: thread.root.line_end });
}

/**
 * An editor's comment on lines of the code, the replies under it, a box to reply, and the regrade
 * request about it (or the action that asks).
 */
export function CommentThread({
  submissionId,
  thread,
  rubricTitle,
  requests,
  canReply,
  onAsk,
}: {
  submissionId: number;
  thread: Thread;
  /** The title of the rubric item the comment is tied to; undefined when none. */
  rubricTitle: string | undefined;
  requests: readonly RegradeRequest[];
  canReply: boolean;
  onAsk: ((target: RegradeTarget) => void) | null;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const lines = useLinesLabel()(thread);
  const where = t('feedback.code.where', { file: thread.root.filename, lines });
  return (
    <Paper
      component="article"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="sm"
      className={classes.thread}
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={700} id={headingId}>
            {t('feedback.code.threadTitle', { where })}
          </Text>
          {rubricTitle ? (
            <Badge variant="light" color="gray" style={{ textTransform: 'none' }}>
              {rubricTitle}
            </Badge>
          ) : null}
        </Group>
        <CommentBody comment={thread.root} />
        {thread.replies.length > 0 ? (
          <Stack gap="xs" className={classes.reply}>
            {thread.replies.map((reply) => (
              <CommentBody key={reply.id} comment={reply} />
            ))}
          </Stack>
        ) : null}
        <RegradeControl
          request={requestAbout(requests, { commentId: thread.root.id })}
          target={{ about: { commentId: thread.root.id }, name: t('feedback.code.commentOn', { where }) }}
          onAsk={onAsk}
        />
        {canReply ? <ReplyForm submissionId={submissionId} thread={thread} where={where} /> : null}
      </Stack>
    </Paper>
  );
}

function CommentBody({ comment }: { comment: ReviewComment }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const name = comment.author ? memberName(comment.author, i18n.language) : t('feedback.unknownPerson');
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {t('courseHome.byWhen', { name, when: format.dateTime(comment.created_at) })}
      </Text>
      <Markdown source={comment.body} />
    </Stack>
  );
}

/** A "Reply" button that opens the reply box; the box closes again after a reply or on Cancel. */
function ReplyForm({ submissionId, thread, where }: { submissionId: number; thread: Thread; where: string }) {
  const { t } = useTranslation();
  const { reply } = useFeedbackMutations(submissionId);
  const [open, setOpen] = useState(false);
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement>(null);

  // The focus goes back to the button that opened the box, not to the top of the page.
  const close = () => {
    setOpen(false);
    setProblem(null);
    requestAnimationFrame(() => opener.current?.focus());
  };
  const send = async () => {
    if (body.trim() === '') {
      setProblem(t('feedback.reply.required'));
      return;
    }
    setProblem(null);
    try {
      await reply.mutateAsync({ commentId: thread.root.id, body: body.trim() });
      setBody('');
      close();
      notifySuccess(t('feedback.reply.sent'));
    } catch (error) {
      notifyError(errorMessage(error, t), { title: t('feedback.reply.failed') });
    }
  };

  if (!open) {
    return (
      <Group>
        <Button ref={opener} size="compact-sm" variant="light" onClick={() => setOpen(true)}>
          {t('feedback.reply.open')}
        </Button>
      </Group>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <Stack gap={6}>
        <Textarea
          label={t('feedback.reply.label', { where })}
          autosize
          minRows={2}
          maxLength={MAX_COMMENT_LENGTH}
          autoFocus
          value={body}
          error={problem}
          onChange={(event) => setBody(event.currentTarget.value)}
        />
        <Group gap="xs" justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" size="compact-sm" loading={reply.isPending}>
            {t('feedback.reply.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
