import { Stack, Text, Title } from '@mantine/core';
import type { RegradeRequest, SubmissionFile } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { MAX_SHOWN_CHARACTERS } from '../../ui/OutputBlock.tsx';
import { CommentThread } from './CommentThread.tsx';
import classes from './Feedback.module.css';
import type { RegradeTarget } from './RegradeControl.tsx';
import { isCommented, linesOf, segmentsOf, type Thread } from './threads.ts';

interface ThreadProps {
  submissionId: number;
  rubricTitles: ReadonlyMap<number, string>;
  requests: readonly RegradeRequest[];
  canReply: boolean;
  onAsk: ((target: RegradeTarget) => void) | null;
}

/**
 * The files an editor commented on, each thread right below the last line it is about. The code is a
 * plain listing, cut after each commented line: every part scrolls sideways inside itself, and the
 * threads between them stay as wide as the page (a phone is where students read this).
 */
export function CodeComments({
  files,
  threads,
  ...threadProps
}: ThreadProps & { files: readonly SubmissionFile[]; threads: readonly Thread[] }) {
  const { t } = useTranslation();
  const filenames = [...new Set(threads.map((thread) => thread.root.filename))];
  if (filenames.length === 0) return null;
  return (
    <Stack gap="md">
      <Title order={3} size="h5">
        {t('feedback.code.title')}
      </Title>
      {filenames.map((filename) => (
        <CommentedFile
          key={filename}
          filename={filename}
          file={files.find((file) => file.filename === filename)}
          threads={threads.filter((thread) => thread.root.filename === filename)}
          {...threadProps}
        />
      ))}
    </Stack>
  );
}

function CommentedFile({
  filename,
  file,
  threads,
  ...threadProps
}: ThreadProps & { filename: string; file: SubmissionFile | undefined; threads: Thread[] }) {
  const { t } = useTranslation();
  const content = file?.content ?? null;
  const renderThread = (thread: Thread) => (
    <CommentThread
      key={thread.root.id}
      thread={thread}
      rubricTitle={
        thread.root.rubric_item_id === null
          ? undefined
          : threadProps.rubricTitles.get(thread.root.rubric_item_id)
      }
      {...threadProps}
    />
  );
  if (content === null || content.length > MAX_SHOWN_CHARACTERS) {
    return (
      <Stack gap="xs">
        <Text size="sm" fw={600} ff="monospace">
          {filename}
        </Text>
        <Text size="sm" c="dimmed">
          {t('feedback.code.notShown')}
        </Text>
        {threads.map(renderThread)}
      </Stack>
    );
  }
  const lines = linesOf(content);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} ff="monospace">
        {filename}
      </Text>
      {segmentsOf(lines.length, threads).map((segment) => (
        <Stack key={segment.from} gap="xs">
          {segment.from <= segment.to ? (
            <div
              className={classes.code}
              role="group"
              tabIndex={0}
              aria-label={t('feedback.code.part', { file: filename, from: segment.from, to: segment.to })}
            >
              {lines.slice(segment.from - 1, segment.to).map((text, index) => {
                const line = segment.from + index;
                return (
                  <div
                    key={line}
                    data-line={line}
                    className={
                      isCommented(line, threads) ? `${classes.line} ${classes.commented}` : classes.line
                    }
                  >
                    <span className={classes.number}>{line}</span>
                    <code>{text === '' ? ' ' : text}</code>
                  </div>
                );
              })}
            </div>
          ) : null}
          {segment.threads.map(renderThread)}
        </Stack>
      ))}
    </Stack>
  );
}
