import { Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconBookmarks } from '@tabler/icons-react';
import { MAX_COMMENT_LENGTH, type Review, type SavedComment } from '@kadai/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import type { LineRange } from './line-range.ts';
import { useCommentMutations } from './review.queries.ts';
import { SavedCommentPicker } from './SavedCommentPicker.tsx';
import { useLinesLabel } from './useLinesLabel.ts';

/** Whether a `\` typed at `position` of `text` opens the picker: at the start or after a space. */
function opensPicker(text: string, position: number): boolean {
  return position === 0 || /\s/u.test(text.charAt(position - 1));
}

/**
 * A new thread on lines of a file: Markdown, an optional rubric item, and the course's saved comments to
 * insert (the button, or `\` at the start of a word). An inserted saved comment is sent as
 * `saved_comment_id`, which counts one use of it.
 */
export function CommentForm({
  review,
  filename,
  range,
  onDone,
}: {
  review: Review;
  filename: string;
  range: LineRange;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const linesLabel = useLinesLabel();
  const { create } = useCommentMutations(review.submission_id, review.course_id);
  const [body, setBody] = useState('');
  const [savedId, setSavedId] = useState<number | null>(null);
  const [itemId, setItemId] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);

  const insert = (comment: SavedComment) => {
    const text = area.current;
    const at = text ? text.selectionStart : body.length;
    setBody(body.slice(0, at) + comment.body + body.slice(at));
    setSavedId(comment.id);
    if (itemId === null && comment.rubric_item_id !== null) setItemId(String(comment.rubric_item_id));
    setPicking(false);
    requestAnimationFrame(() => area.current?.focus());
  };

  const submit = () =>
    create.mutate(
      {
        filename,
        line_start: range.start,
        line_end: range.end,
        body: body.trim(),
        rubric_item_id: itemId === null ? null : Number(itemId),
        saved_comment_id: savedId,
      },
      { onSuccess: onDone },
    );

  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {t('grading.comment.title', { file: filename, lines: linesLabel(range) })}
        </Text>
        <Textarea
          ref={area}
          label={t('grading.comment.body')}
          description={t('grading.comment.bodyHint')}
          autosize
          minRows={3}
          maxLength={MAX_COMMENT_LENGTH}
          value={body}
          autoFocus
          error={create.isError ? errorMessage(create.error, t) : null}
          onChange={(event) => setBody(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === '\\' && opensPicker(body, event.currentTarget.selectionStart)) {
              event.preventDefault();
              setPicking(true);
            }
          }}
        />
        {picking ? (
          <SavedCommentPicker courseId={review.course_id} onPick={insert} onClose={() => setPicking(false)} />
        ) : null}
        <Select
          label={t('grading.comment.item')}
          placeholder={t('grading.comment.noItem')}
          clearable
          data={review.rubric.items.map((item) => ({ value: String(item.id), label: item.title }))}
          value={itemId}
          onChange={setItemId}
        />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Button
            variant="subtle"
            leftSection={<IconBookmarks size={16} aria-hidden />}
            onClick={() => setPicking((open) => !open)}
          >
            {t('grading.saved.insert')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button onClick={submit} loading={create.isPending} disabled={!body.trim()}>
              {t('grading.comment.post')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
