import { Grid, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { VideoPlatform } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { useSession } from '../auth/session.ts';
import { VideoCard } from './VideoCard.tsx';
import { VideoPlayer } from './VideoPlayer.tsx';
import { VideoProgress } from './VideoProgress.tsx';
import { useWatchReporting } from './useWatchReporting.ts';
import { statsByVideo } from './video-format.ts';
import { courseVideosQuery, myVideoStatsQuery } from './videos.queries.ts';

/**
 * VideoDetail (`/course/{course_id}/{platform}/{video_url}`): the player, my progress (updated after each
 * report, every 10 s while playing and at each pause), and the course's other videos beside it.
 */
export function VideoDetailPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const { platform, video_url: videoUrl } = useParams();
  const userId = useSession((s) => s.userId);
  const videos = useQuery(courseVideosQuery(course.id));
  const stats = useQuery(myVideoStatsQuery(course.id, userId));
  const known = VideoPlatform.safeParse(platform);
  const video = videos.data?.results.find((v) => v.platform === platform && v.video_id === videoUrl);
  const onPlayerEvent = useWatchReporting(video);

  if (!known.success) return <NotFoundPage />;
  if (videos.isError) return <ErrorState error={videos.error} onRetry={() => void videos.refetch()} />;
  if (!videos.data) return <Skeleton height={360} aria-busy="true" />;
  if (!video) return <NotFoundPage />;
  const byVideo = statsByVideo(stats.data?.results);

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Stack gap="md">
          <Title order={1}>{video.name}</Title>
          <VideoPlayer
            video={video}
            playerBase={video.platform === 'file' ? '' : videos.data.players[video.platform]}
            onEvent={onPlayerEvent}
          />
          <Paper withBorder p="md" radius="md" component="section" aria-label={t('videos.myProgress')}>
            <Text fw={600} mb="xs">
              {t('videos.myProgress')}
            </Text>
            <VideoProgress video={video} stat={byVideo.get(video.id)} detailed />
          </Paper>
          {video.description ? <Markdown source={video.description} /> : null}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="xs" component="nav" aria-label={t('videos.courseVideos')}>
          <Title order={2} size="h4">
            {t('videos.courseVideos')}
          </Title>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {videos.data.results.map((other) => (
              <li key={other.id}>
                <VideoCard video={other} stat={byVideo.get(other.id)} current={other.id === video.id} />
              </li>
            ))}
          </Stack>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
