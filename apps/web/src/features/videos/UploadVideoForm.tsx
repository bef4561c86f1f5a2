import { Button, FileInput, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VIDEO_FILE_TYPES } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { uploadVideoFile } from './videos.api.ts';
import { videoKeys } from './videos.queries.ts';

const ACCEPT = Object.keys(VIDEO_FILE_TYPES)
  .map((extension) => `.${extension}`)
  .join(',');

/** The length of a local video file, read by the browser from its metadata (null when it cannot tell). */
function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const probe = document.createElement('video');
    probe.preload = 'metadata';
    const done = (value: number | null) => {
      URL.revokeObjectURL(url);
      resolve(value);
    };
    probe.onloadedmetadata = () => done(Number.isFinite(probe.duration) ? Math.round(probe.duration) : null);
    probe.onerror = () => done(null);
    probe.src = url;
  });
}

/** Uploads a lecture video file (MP4, WebM, Ogg) to the course; its length is read from the file. */
export function UploadVideoForm({ courseId, onDone }: { courseId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [duration, setDuration] = useState<number | ''>('');
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: () => uploadVideoFile(courseId, { name: name.trim(), duration: Number(duration) }, file!),
    onSuccess: (video) => {
      void queryClient.invalidateQueries({ queryKey: videoKeys.course(courseId) });
      notifySuccess(t('videos.added', { name: video.name }));
      onDone();
    },
    onError: (e) => setError(errorMessage(e, t)),
  });
  const ready = file !== null && name.trim() !== '' && typeof duration === 'number' && duration > 0;

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setError(null);
    if (!chosen) return;
    if (!name.trim()) setName(chosen.name.replace(/\.[^.]+$/, ''));
    const seconds = await readDuration(chosen);
    if (seconds) setDuration(seconds);
  };

  return (
    <Stack>
      <FileInput
        label={t('videos.file')}
        description={t('videos.fileHint')}
        accept={ACCEPT}
        value={file}
        onChange={(chosen) => void choose(chosen)}
        leftSection={<IconUpload size={16} aria-hidden />}
        required
        clearable
        error={error}
      />
      <TextInput
        label={t('videos.name')}
        required
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
      />
      <NumberInput
        label={t('videos.durationSeconds')}
        description={t('videos.durationRead')}
        min={1}
        max={86_400}
        allowDecimal={false}
        value={duration}
        onChange={(value) => setDuration(typeof value === 'number' ? value : '')}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button onClick={() => upload.mutate()} disabled={!ready} loading={upload.isPending}>
          {t('videos.upload')}
        </Button>
      </Group>
    </Stack>
  );
}
