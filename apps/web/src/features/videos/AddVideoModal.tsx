import { Button, Group, Modal, NumberInput, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, useForm } from 'react-hook-form';
import { applyFieldErrors } from '../../ui/form.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { parseVideoInput } from './video-format.ts';
import type { useVideoMutations } from './useVideoMutations.tsx';
import { UploadVideoForm } from './UploadVideoForm.tsx';

interface Values {
  address: string;
  name: string;
  minutes: number;
  seconds: number;
}

/**
 * Adds a YouTube or Vimeo video by its address or id (the page reads which one it is). The length is
 * asked for because progress is measured against it; a Vimeo sync fills it in by itself.
 */
export function AddVideoModal({
  courseId,
  opened,
  onClose,
  create,
}: {
  courseId: number;
  opened: boolean;
  onClose: () => void;
  create: ReturnType<typeof useVideoMutations>['create'];
}) {
  const { t } = useTranslation();
  const form = useForm<Values>({ defaultValues: { address: '', name: '', minutes: 0, seconds: 0 } });
  const [mode, setMode] = useState<'link' | 'file'>('link');
  const close = () => {
    form.reset();
    setMode('link');
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    const parsed = parseVideoInput(values.address);
    if (!parsed) return;
    try {
      const video = await create.mutateAsync({
        course: courseId,
        platform: parsed.platform,
        video_id: parsed.id,
        name: values.name.trim(),
        description: '',
        duration: values.minutes * 60 + values.seconds,
        thumbnail_url: null,
      });
      notifySuccess(t('videos.added', { name: video.name }));
      close();
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, ['name'])) {
        // A duplicate, an id the platform would not have, too many videos: said beside the address.
        const message = errorMessage(error, t);
        form.setError('address', { type: 'server', message });
        notifyError(message);
      }
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={t('videos.addTitle')} size="lg">
      <SegmentedControl
        mb="md"
        fullWidth
        value={mode}
        onChange={(value) => setMode(value === 'file' ? 'file' : 'link')}
        data={[
          { value: 'link', label: t('videos.addLink') },
          { value: 'file', label: t('videos.addFile') },
        ]}
      />
      {mode === 'file' ? (
        <UploadVideoForm courseId={courseId} onDone={close} />
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <TextInput
              label={t('videos.address')}
              description={t('videos.addressHint')}
              required
              data-autofocus
              error={form.formState.errors.address?.message}
              {...form.register('address', {
                validate: (value) => parseVideoInput(value) !== null || t('videos.addressInvalid'),
              })}
            />
            <TextInput
              label={t('videos.name')}
              required
              maxLength={200}
              error={form.formState.errors.name?.message}
              {...form.register('name', {
                validate: (value) => value.trim().length > 0 || t('videos.nameRequired'),
              })}
            />
            <Group grow align="flex-start">
              <Controller
                control={form.control}
                name="minutes"
                rules={{
                  validate: (value, all) => value * 60 + all.seconds > 0 || t('videos.durationRequired'),
                }}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={t('videos.minutes')}
                    min={0}
                    max={1440}
                    allowDecimal={false}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                    error={fieldState.error?.message}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="seconds"
                render={({ field }) => (
                  <NumberInput
                    label={t('videos.seconds')}
                    min={0}
                    max={59}
                    allowDecimal={false}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                  />
                )}
              />
            </Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t('videos.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
