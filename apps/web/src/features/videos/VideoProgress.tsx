import { Badge, Box, Group, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { Video, VideoStat } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { clock, percent } from './video-format.ts';

/** The viewer's progress on one video: a bar, the share watched and "Completed" once past the threshold. */
export function VideoProgress({
  video,
  stat,
  detailed = false,
}: {
  video: Video;
  stat?: VideoStat;
  detailed?: boolean;
}) {
  const { t } = useTranslation();
  const value = stat ? percent(stat.progress) : 0;
  const label = t('videos.progressLabel', { name: video.name, percent: value });
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text size="sm" c="dimmed">
          {stat
            ? detailed
              ? t('videos.watchedOf', { watched: clock(stat.watched_seconds), total: clock(video.duration) })
              : t('videos.watchedPercent', { percent: value })
            : t('videos.notStarted')}
        </Text>
        {stat?.completed ? (
          <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={12} aria-hidden />}>
            {t('videos.completed')}
          </Badge>
        ) : null}
      </Group>
      {/* A measurement in a known range, not a task under way: a meter (progress bars mean "loading"). */}
      <Box
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        h={6}
        bg="var(--mantine-color-default-border)"
        style={{ borderRadius: 3, overflow: 'hidden' }}
      >
        <Box
          h="100%"
          w={`${value}%`}
          bg={stat?.completed ? 'var(--mantine-color-teal-filled)' : 'var(--mantine-color-blue-filled)'}
        />
      </Box>
    </div>
  );
}
