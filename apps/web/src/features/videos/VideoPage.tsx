import { ActionIcon, Button, Group, Menu, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconDots,
  IconEye,
  IconEyeOff,
  IconPlus,
  IconRefresh,
  IconSettings,
  IconTrash,
  IconVideo,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Video, VideoList } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useSession } from '../auth/session.ts';
import { AddVideoModal } from './AddVideoModal.tsx';
import { SyncStatus } from './SyncStatus.tsx';
import { VideoCard } from './VideoCard.tsx';
import { VideoSettingsModal } from './VideoSettingsModal.tsx';
import { VideoStatsTable } from './VideoStatsTable.tsx';
import { useVideoMutations } from './useVideoMutations.tsx';
import { statsByVideo } from './video-format.ts';
import { courseVideosQuery, myVideoStatsQuery } from './videos.queries.ts';

/**
 * Lecture Videos: the course's videos in order with the viewer's progress on each. Editors and staff
 * also add videos, sync them from the course's Vimeo folder, set the completion threshold, hide or
 * delete videos, and see the statistics of every student (tab `?tab=stats`).
 */
export function VideoPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const userId = useSession((s) => s.userId);
  const videos = useQuery(courseVideosQuery(course.id));
  const stats = useQuery(myVideoStatsQuery(course.id, userId));
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'stats' ? 'stats' : 'videos';

  if (videos.isError) return <ErrorState error={videos.error} onRetry={() => void videos.refetch()} />;
  const data = videos.data;
  const byVideo = statsByVideo(stats.data?.results);

  const list = !data ? (
    <Stack aria-busy="true">
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} height={90} />
      ))}
    </Stack>
  ) : data.results.length === 0 ? (
    <Stack align="center" py="xl" gap="xs">
      <IconVideo size={40} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text c="dimmed">{data.can_manage ? t('videos.emptyManager') : t('videos.empty')}</Text>
    </Stack>
  ) : (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {data.results.map((video) => (
        <li key={video.id}>
          <VideoCard
            video={video}
            stat={byVideo.get(video.id)}
            actions={data.can_manage ? <VideoMenu courseId={course.id} video={video} /> : undefined}
          />
        </li>
      ))}
    </Stack>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.video')}</Title>
        {data?.can_manage ? <ManagerActions courseId={course.id} list={data} /> : null}
      </Group>
      {data?.can_manage ? (
        <Tabs
          value={tab}
          onChange={(value) => setParams(value === 'stats' ? { tab: 'stats' } : {}, { replace: true })}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="videos">{t('videos.tabs.videos')}</Tabs.Tab>
            <Tabs.Tab value="stats">{t('videos.tabs.stats')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="videos">{list}</Tabs.Panel>
          <Tabs.Panel value="stats">
            <VideoStatsTable courseId={course.id} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        list
      )}
    </Stack>
  );
}

function ManagerActions({ courseId, list }: { courseId: number; list: VideoList }) {
  const { t } = useTranslation();
  const mutations = useVideoMutations(courseId);
  const [adding, add] = useDisclosure(false);
  const [editing, settings] = useDisclosure(false);
  const canSync = list.settings.vimeo_configured && list.settings.vimeo_source !== null;
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs">
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add.open}>
          {t('videos.add')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={mutations.confirmSync}
          disabled={!canSync}
          loading={mutations.sync.isPending}
          title={canSync ? undefined : t('videos.syncUnavailable')}
        >
          {t('videos.syncAction')}
        </Button>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('videos.settingsTitle')}
          onClick={settings.open}
        >
          <IconSettings size={18} aria-hidden />
        </ActionIcon>
      </Group>
      <SyncStatus courseId={courseId} />
      <AddVideoModal courseId={courseId} opened={adding} onClose={add.close} create={mutations.create} />
      {editing ? (
        <VideoSettingsModal
          courseId={courseId}
          settings={list.settings}
          opened
          onClose={settings.close}
          save={mutations.settings}
        />
      ) : null}
    </Stack>
  );
}

function VideoMenu({ courseId, video }: { courseId: number; video: Video }) {
  const { t } = useTranslation();
  const { update, confirmDelete } = useVideoMutations(courseId);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('videos.actionsFor', { name: video.name })}>
          <IconDots size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={
            video.hidden ? <IconEye size={14} aria-hidden /> : <IconEyeOff size={14} aria-hidden />
          }
          onClick={() => update.mutate({ id: video.id, body: { hidden: !video.hidden } })}
        >
          {video.hidden ? t('videos.show') : t('videos.hide')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => confirmDelete(video)}
        >
          {t('common.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
