import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Video, VideoCreate, VideoSettingsUpdate, VideoUpdate } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import {
  createVideo,
  deleteVideo,
  requestVideoSync,
  updateVideo,
  updateVideoSettings,
} from './videos.api.ts';
import { videoKeys } from './videos.queries.ts';

/** Editors' changes to the course's videos; each refreshes the course's video queries. */
export function useVideoMutations(courseId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: videoKeys.course(courseId) });

  const create = useMutation({ mutationFn: (body: VideoCreate) => createVideo(body), onSuccess: refresh });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: VideoUpdate }) => updateVideo(id, body),
    onSuccess: refresh,
    onError: (error) => notifyError(errorMessage(error, t)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteVideo(id),
    onSuccess: refresh,
    onError: (error) => notifyError(errorMessage(error, t)),
  });
  const settings = useMutation({
    mutationFn: (body: VideoSettingsUpdate) => updateVideoSettings(body),
    onSuccess: refresh,
  });
  const sync = useMutation({
    mutationFn: () => requestVideoSync(courseId),
    onSuccess: (started) => {
      queryClient.setQueryData(videoKeys.sync(courseId), { sync: started });
      if (started.status === 'failed') {
        notifyError(started.error ?? '', { title: t('videos.syncFailed') });
      }
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('videos.syncFailed') }),
  });

  const confirmDelete = (video: Video) =>
    modals.openConfirmModal({
      title: t('videos.deleteTitle', { name: video.name }),
      children: (
        <Text size="sm">
          {t('common.confirmDelete')} {t('videos.deleteNote')}
        </Text>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(video.id, {
          onSuccess: () => notifySuccess(t('videos.deleted', { name: video.name })),
        }),
    });

  const confirmSync = () =>
    modals.openConfirmModal({
      title: t('videos.syncTitle'),
      children: <Text size="sm">{t('videos.syncWarning')}</Text>,
      labels: { confirm: t('videos.syncAction'), cancel: t('common.cancel') },
      onConfirm: () => sync.mutate(),
    });

  return { create, update, settings, sync, confirmDelete, confirmSync };
}
