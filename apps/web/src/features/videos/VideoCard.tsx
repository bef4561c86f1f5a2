import { Badge, Card, Group, Image, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBrandVimeo, IconBrandYoutube, IconEyeOff, IconMovie } from '@tabler/icons-react';
import type { Video, VideoStat } from '@kadai/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { VideoProgress } from './VideoProgress.tsx';
import { clock, videoParams } from './video-format.ts';

/** One video of the course list: thumbnail, name, length, the viewer's progress, managers' badges. */
export function VideoCard({
  video,
  stat,
  actions,
  current = false,
}: {
  video: Video;
  stat?: VideoStat;
  actions?: ReactNode;
  current?: boolean;
}) {
  const { t } = useTranslation();
  const PlatformIcon =
    video.platform === 'vimeo' ? IconBrandVimeo : video.platform === 'youtube' ? IconBrandYoutube : IconMovie;
  return (
    <Card withBorder radius="md" padding="sm" aria-current={current ? 'page' : undefined}>
      <Group wrap="nowrap" align="flex-start" gap="sm">
        {video.thumbnail_url ? (
          <Image src={video.thumbnail_url} alt="" w={112} h={63} radius="sm" fit="cover" />
        ) : (
          <ThemeIcon size={63} w={112} radius="sm" variant="light" aria-hidden>
            <PlatformIcon size={28} />
          </ThemeIcon>
        )}
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text
              component={Link}
              to={pathTo('VideoDetail', videoParams(video))}
              fw={600}
              lineClamp={2}
              c="var(--mantine-color-anchor)"
            >
              {video.name}
            </Text>
            {actions}
          </Group>
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              {clock(video.duration)} · {t(`videos.platform.${video.platform}`)}
            </Text>
            {video.hidden ? (
              <Badge
                size="xs"
                variant="outline"
                color="gray"
                leftSection={<IconEyeOff size={10} aria-hidden />}
              >
                {t('videos.hidden')}
              </Badge>
            ) : null}
            {video.missing_from_source ? (
              <Badge size="xs" variant="outline" color="orange">
                {t('videos.missing')}
              </Badge>
            ) : null}
          </Group>
          <VideoProgress video={video} stat={stat} />
        </Stack>
      </Group>
    </Card>
  );
}
