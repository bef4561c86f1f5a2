import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { VideoTableQuery } from '@kadai/contracts';
import { getVideoSync, getVideoTable, listMyVideoStats, listVideos } from './videos.api.ts';

export const videoKeys = {
  all: ['videos'] as const,
  course: (courseId: number) => [...videoKeys.all, 'course', courseId] as const,
  list: (courseId: number) => [...videoKeys.course(courseId), 'list'] as const,
  myStats: (courseId: number) => [...videoKeys.course(courseId), 'my-stats'] as const,
  sync: (courseId: number) => [...videoKeys.course(courseId), 'sync'] as const,
  table: (courseId: number, query: Partial<VideoTableQuery>) =>
    [...videoKeys.course(courseId), 'table', query] as const,
};

export function courseVideosQuery(courseId: number) {
  return queryOptions({
    queryKey: videoKeys.list(courseId),
    queryFn: ({ signal }) => listVideos(courseId, signal),
  });
}

export function myVideoStatsQuery(courseId: number, userId: number | null) {
  return queryOptions({
    queryKey: videoKeys.myStats(courseId),
    queryFn: ({ signal }) => listMyVideoStats(courseId, userId, signal),
    enabled: userId !== null,
  });
}

/** Polls every 2 s while a sync waits or runs. */
export function videoSyncQuery(courseId: number, enabled: boolean) {
  return queryOptions({
    queryKey: videoKeys.sync(courseId),
    queryFn: ({ signal }) => getVideoSync(courseId, signal),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.sync?.status;
      return status === 'queued' || status === 'running' ? 2000 : false;
    },
  });
}

export function videoTableQuery(courseId: number, query: Partial<VideoTableQuery>) {
  return queryOptions({
    queryKey: videoKeys.table(courseId, query),
    queryFn: ({ signal }) => getVideoTable(courseId, query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Breadcrumb title of `video_url`: the name of the course's video with that platform id (cached list). */
export async function resolveVideoTitle(
  value: string,
  params: Readonly<Record<string, string | undefined>>,
  queryClient: QueryClient,
): Promise<string> {
  const list = await queryClient.ensureQueryData(courseVideosQuery(Number(params.course_id)));
  const video = list.results.find((v) => v.platform === params.platform && v.video_id === value);
  if (!video) throw new Error('video not found');
  return video.name;
}
