import { Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { VideoSettings } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifySuccess } from '../../ui/notify.ts';
import type { useVideoMutations } from './useVideoMutations.tsx';

/** The course's completion threshold and the Vimeo folder or showcase its sync reads. */
export function VideoSettingsModal({
  courseId,
  settings,
  opened,
  onClose,
  save,
}: {
  courseId: number;
  settings: VideoSettings;
  opened: boolean;
  onClose: () => void;
  save: ReturnType<typeof useVideoMutations>['settings'];
}) {
  const { t } = useTranslation();
  const [percent, setPercent] = useState(settings.completion_percent);
  const [kind, setKind] = useState<'folder' | 'showcase'>(settings.vimeo_source?.kind ?? 'folder');
  const [sourceId, setSourceId] = useState(settings.vimeo_source?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const idValid = sourceId.trim() === '' || /^\d{1,20}$/.test(sourceId.trim());

  const submit = () => {
    if (!idValid) return;
    setError(null);
    save.mutate(
      {
        course: courseId,
        completion_percent: percent,
        vimeo_source: sourceId.trim() ? { kind, id: sourceId.trim() } : null,
      },
      {
        onSuccess: () => {
          notifySuccess(t('videos.settingsSaved'));
          onClose();
        },
        onError: (e) => setError(errorMessage(e, t)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('videos.settingsTitle')}>
      <Stack>
        <NumberInput
          label={t('videos.completionPercent')}
          description={t('videos.completionHint')}
          min={1}
          max={100}
          suffix=" %"
          allowDecimal={false}
          value={percent}
          onChange={(value) => setPercent(typeof value === 'number' ? value : 90)}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="vimeo-source-kind">
            {t('videos.vimeoSource')}
          </Text>
          <SegmentedControl
            aria-labelledby="vimeo-source-kind"
            value={kind}
            onChange={(value) => setKind(value === 'showcase' ? 'showcase' : 'folder')}
            data={[
              { value: 'folder', label: t('videos.vimeoFolder') },
              { value: 'showcase', label: t('videos.vimeoShowcase') },
            ]}
          />
          <TextInput
            label={t('videos.vimeoSourceId')}
            description={t('videos.vimeoSourceHint')}
            inputMode="numeric"
            value={sourceId}
            onChange={(event) => setSourceId(event.currentTarget.value)}
            error={idValid ? undefined : t('videos.vimeoSourceInvalid')}
          />
          {!settings.vimeo_configured ? (
            <Text size="sm" c="dimmed">
              {t('videos.vimeoNotConfigured')}
            </Text>
          ) : null}
        </Stack>
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
