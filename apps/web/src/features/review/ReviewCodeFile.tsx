import { Button, Group, Stack, Text } from '@mantine/core';
import { IconMessagePlus, IconX } from '@tabler/icons-react';
import type { Review, SubmissionFile } from '@kadai/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { MAX_SHOWN_CHARACTERS } from '../../ui/OutputBlock.tsx';
import { extensionOf } from '../assignments/file-limits.ts';
import { CommentForm } from './CommentForm.tsx';
import { CommentThreads } from './CommentThreads.tsx';
import { lineChoosing, type LineChoosingHandlers } from './line-choosing.ts';
import { clickLine, type LineRange } from './line-range.ts';
import { threadGutter, type ThreadMark } from './thread-gutter.ts';
import { useLinesLabel } from './useLinesLabel.ts';

/** `3-5,7-7` back into ranges: the threads' lines as a value a memo can compare. */
function rangesOf(key: string): LineRange[] {
  if (!key) return [];
  return key.split(',').map((pair) => {
    const [start = 0, end = 0] = pair.split('-').map(Number);
    return { start, end };
  });
}

/** `4:2,5:7` back into thread marks (id and last line). */
function marksOf(key: string): ThreadMark[] {
  if (!key) return [];
  return key.split(',').map((pair) => {
    const [id = 0, line = 0] = pair.split(':').map(Number);
    return { id, line };
  });
}

/**
 * One submitted file, read-only with line numbers, its comment threads under it. Lines are chosen by
 * their numbers (click, shift-click) or by selecting text; "Comment on lines…" then opens the form.
 */
export function ReviewCodeFile({ file, review }: { file: SubmissionFile; review: Review }) {
  const { t } = useTranslation();
  const linesLabel = useLinesLabel();
  const [choice, setChoice] = useState<{ anchor: number; range: LineRange } | null>(null);
  const [writing, setWriting] = useState<LineRange | null>(null);
  const threads = review.comments.filter((c) => c.filename === file.filename && c.parent_id === null);
  const commentedKey = threads.map((c) => `${c.line_start}-${c.line_end}`).join(',');
  const marksKey = threads.map((c) => `${c.id}:${c.line_end}`).join(',');

  // Only state setters inside: the same handlers for the file's whole life.
  const handlers = useMemo<LineChoosingHandlers>(
    () => ({
      onClickLine: (line, extend) => setChoice((current) => clickLine(current, line, extend)),
      onSelectLines: (range) => setChoice({ anchor: range.start, range }),
    }),
    [],
  );
  const range = choice?.range ?? null;
  const start = range?.start ?? null;
  const end = range?.end ?? null;
  const commented = useMemo(() => rangesOf(commentedKey), [commentedKey]);
  const markTitle = t('grading.comment.toThread');
  const extensions = useMemo(
    () => [
      ...lineChoosing(handlers, start === null || end === null ? null : { start, end }, commented),
      ...threadGutter(marksOf(marksKey), markTitle),
    ],
    [handlers, start, end, commented, marksKey, markTitle],
  );

  if (file.content === null || file.content.length > MAX_SHOWN_CHARACTERS) {
    return (
      <Stack gap={6}>
        <Text size="sm" fw={600} ff="monospace">
          {file.filename}
        </Text>
        <Text size="sm" c="dimmed">
          {file.content === null ? t('submissions.files.binary') : t('common.tooLongToShow')}
        </Text>
      </Stack>
    );
  }

  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {file.filename}
        </Text>
        {range ? (
          <Group gap="xs">
            <Button
              size="compact-sm"
              leftSection={<IconMessagePlus size={14} aria-hidden />}
              onClick={() => setWriting(range)}
            >
              {t('grading.comment.on', { lines: linesLabel(range) })}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => setChoice(null)}
              aria-label={t('grading.comment.clearChoice')}
            >
              <IconX size={14} aria-hidden />
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {t('grading.comment.hint')}
          </Text>
        )}
      </Group>
      <CodeEditor
        value={file.content}
        label={file.filename}
        readOnly
        language={extensionOf(file.filename) === '.py' ? 'python' : 'plain'}
        minHeight={40}
        maxHeight={560}
        extensions={extensions}
      />
      {writing ? (
        <CommentForm
          key={`${writing.start}-${writing.end}`}
          review={review}
          filename={file.filename}
          range={writing}
          onDone={() => {
            setWriting(null);
            setChoice(null);
          }}
        />
      ) : null}
      <CommentThreads review={review} threads={threads} />
    </Stack>
  );
}
