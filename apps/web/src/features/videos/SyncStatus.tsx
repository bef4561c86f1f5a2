import { Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { VideoSync } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { videoKeys, videoSyncQuery } from './videos.queries.ts';

/**
 * The course's latest sync: "Syncing…" while it waits or runs (polled every 2 s), then the notice
 * ('Video synced successfully' with what changed, or 'Failed to sync videos' with the reason) once.
 */
export function SyncStatus({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery(videoSyncQuery(courseId, true));
  const sync = status.data?.sync ?? null;
  const watched = useRef<number | null>(null);

  useEffect(() => {
    if (!sync) return;
    const active = sync.status === 'queued' || sync.status === 'running';
    if (active) {
      watched.current = sync.id;
      return;
    }
    if (watched.current !== sync.id) return;
    watched.current = null;
    void queryClient.invalidateQueries({ queryKey: videoKeys.list(courseId) });
    if (sync.status === 'succeeded') notifySuccess(summary(sync, t), { title: t('videos.synced') });
    else notifyError(sync.error ?? '', { title: t('videos.syncFailed'), autoClose: 10_000 });
  }, [sync, courseId, queryClient, t]);

  if (!sync) return null;
  if (sync.status === 'queued' || sync.status === 'running') {
    return (
      <Text size="sm" c="dimmed" role="status">
        <Loader size={12} mr={6} aria-hidden />
        {t('videos.syncing')}
      </Text>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      {sync.status === 'succeeded'
        ? t('videos.lastSync', { summary: summary(sync, t) })
        : t('videos.lastSyncFailed', { reason: sync.error ?? '' })}
    </Text>
  );
}

function summary(sync: VideoSync, t: TFunction): string {
  return t('videos.syncSummary', {
    added: sync.added,
    updated: sync.updated,
    unchanged: sync.unchanged,
    missing: sync.missing,
  });
}
