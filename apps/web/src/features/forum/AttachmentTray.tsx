import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPaperclip, IconUpload, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { MAX_FORUM_FILE_BYTES, MAX_FORUM_FILES_PER_POST, type ForumFile } from '@kadai/contracts';
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { FileList } from '../../ui/FileList.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { deleteForumFile, uploadForumFiles } from './forum.api.ts';
import { filesFit, forumMessageKey } from './post-form.ts';

/** Playwright and the component tests set files on the hidden input by this id. */
export const FILE_INPUT_TEST_ID = 'forum-file-input';
const FILE_INPUT_PROPS: ComponentProps<'input'> & { 'data-testid': string } = {
  'data-testid': FILE_INPUT_TEST_ID,
};

/**
 * The files of a post being written. The limits are shown before choosing and checked before anything
 * is sent; uploads wait in the writer's tray until the post is saved with their ids. Removing a new
 * upload deletes it at once; removing an attached file takes effect when the post is saved.
 */
export function AttachmentTray({
  courseId,
  files,
  onChange,
}: {
  courseId: number;
  files: readonly ForumFile[];
  onChange: (files: ForumFile[]) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [problem, setProblem] = useState<string | null>(null);
  const resetRef = useRef<() => void>(null);
  // The list as of the latest change: an upload finishing after a removal must not bring it back.
  const latest = useRef(files);
  useEffect(() => {
    latest.current = files;
  });

  const upload = useMutation({
    mutationFn: (chosen: File[]) => uploadForumFiles(courseId, chosen),
    onSuccess: (added) => onChange([...latest.current, ...added]),
    onError: (error) => {
      const key = forumMessageKey(error);
      setProblem(key ? t(key) : errorMessage(error, t));
    },
  });
  const remove = useMutation({
    mutationFn: (file: ForumFile) => deleteForumFile(file.id),
    onError: (error) => setProblem(errorMessage(error, t)),
  });

  const choose = (chosen: File[]) => {
    resetRef.current?.();
    if (chosen.length === 0) return;
    if (!filesFit(files.length, chosen)) {
      setProblem(t('forum.uploadLimit'));
      return;
    }
    setProblem(null);
    upload.mutate(chosen);
  };

  const drop = (file: ForumFile) => {
    setProblem(null);
    onChange(files.filter((candidate) => candidate.id !== file.id));
    if (file.record_id === null) remove.mutate(file);
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <FileButton onChange={choose} multiple resetRef={resetRef} inputProps={FILE_INPUT_PROPS}>
          {(props) => (
            <Button
              {...props}
              variant="default"
              size="xs"
              leftSection={<IconUpload size={14} aria-hidden />}
              loading={upload.isPending}
              disabled={files.length >= MAX_FORUM_FILES_PER_POST}
            >
              {t('forum.editor.attach')}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {t('forum.editor.limits', {
            count: MAX_FORUM_FILES_PER_POST,
            size: format.bytes(MAX_FORUM_FILE_BYTES),
          })}
        </Text>
      </Group>
      {problem ? (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      ) : null}
      {files.length > 0 ? (
        <FileList
          label={t('forum.attachments')}
          icon={<IconPaperclip size={16} aria-hidden />}
          removeIcon={<IconX size={14} aria-hidden />}
          removeColor="red"
          items={files.map((file) => ({
            key: file.id,
            name: <Text size="sm">{file.filename}</Text>,
            size: file.size,
            removeLabel: t('forum.editor.removeFile', { name: file.filename }),
            onRemove: () => drop(file),
          }))}
        />
      ) : null}
    </Stack>
  );
}
