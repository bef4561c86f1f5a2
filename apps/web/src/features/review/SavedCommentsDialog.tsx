import { Button, Group, Modal, Paper, Skeleton, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconBookmarks, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { MAX_COMMENT_LENGTH, type SavedComment } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { notifyError } from '../../ui/notify.ts';
import { savedCommentsQuery, useSavedCommentMutations } from './review.queries.ts';

/** Opens the course's saved comments. */
export function SavedCommentsButton({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBookmarks size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('grading.saved.manage')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('grading.saved.title')} size="lg">
        {opened ? <SavedCommentsManager courseId={courseId} /> : null}
      </Modal>
    </>
  );
}

type Editing = { id: number | null; title: string; body: string };

/** The course's saved comments, by title, with how often each was used: add, change, delete. */
function SavedCommentsManager({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const list = useQuery(savedCommentsQuery(courseId));
  const { create, update, remove } = useSavedCommentMutations(courseId);
  const [editing, setEditing] = useState<Editing | null>(null);

  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <Skeleton height={120} aria-busy="true" />;

  const save = () => {
    if (!editing) return;
    const body = { title: editing.title.trim(), body: editing.body.trim() };
    const done = {
      onSuccess: () => setEditing(null),
      onError: (e: Error) => notifyError(errorMessage(e, t)),
    };
    if (editing.id === null) create.mutate(body, done);
    else update.mutate({ id: editing.id, body }, done);
  };
  const edit = (comment: SavedComment) =>
    setEditing({ id: comment.id, title: comment.title, body: comment.body });

  return (
    <Stack gap="sm">
      {list.data.results.length === 0 ? <Text c="dimmed">{t('grading.saved.empty')}</Text> : null}
      {list.data.results.map((comment) =>
        editing?.id === comment.id ? null : (
          <Paper key={comment.id} withBorder p="sm" radius="md">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {comment.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('grading.saved.uses', { count: comment.uses })}
                </Text>
              </Stack>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => edit(comment)}
                  aria-label={t('grading.saved.editNamed', { title: comment.title })}
                >
                  <IconPencil size={14} aria-hidden />
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables === comment.id}
                  onClick={() =>
                    remove.mutate(comment.id, { onError: (e) => notifyError(errorMessage(e, t)) })
                  }
                  aria-label={t('grading.saved.deleteNamed', { title: comment.title })}
                >
                  <IconTrash size={14} aria-hidden />
                </Button>
              </Group>
            </Group>
            <Markdown source={comment.body} />
          </Paper>
        ),
      )}
      {editing ? (
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <TextInput
              label={t('grading.saved.fieldTitle')}
              value={editing.title}
              maxLength={100}
              required
              onChange={(event) => setEditing({ ...editing, title: event.currentTarget.value })}
            />
            <Textarea
              label={t('grading.saved.fieldBody')}
              description={t('grading.markdownHint')}
              value={editing.body}
              autosize
              minRows={3}
              maxLength={MAX_COMMENT_LENGTH}
              required
              onChange={(event) => setEditing({ ...editing, body: event.currentTarget.value })}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                onClick={save}
                loading={create.isPending || update.isPending}
                disabled={!editing.title.trim() || !editing.body.trim()}
              >
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({ id: null, title: '', body: '' })}
          >
            {t('grading.saved.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
