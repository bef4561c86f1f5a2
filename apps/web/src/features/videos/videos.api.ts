import {
  Video,
  VideoList,
  VideoName,
  VideoSettings,
  VideoStat,
  VideoStatList,
  VideoSync,
  VideoSyncStatus,
  VideoTable,
  type VideoCreate,
  type VideoSettingsUpdate,
  type VideoStatCreate,
  type VideoTableQuery,
  type VideoUpdate,
} from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

type Id = number | null | undefined;

export function listVideos(courseId: Id, signal?: AbortSignal) {
  return apiCall('listVideos', 'GET', '/vimeo-videos', {
    query: { course: courseId },
    response: VideoList,
    signal,
  });
}

export function getVideoName(id: Id, signal?: AbortSignal) {
  return apiCall('getVideoName', 'GET', '/vimeo-videos/{video_id}/name', {
    path: { video_id: id },
    response: VideoName,
    signal,
  });
}

export function createVideo(body: VideoCreate) {
  return apiCall('createVideo', 'POST', '/vimeo-videos', { body, response: Video });
}

export function updateVideo(id: Id, body: VideoUpdate) {
  return apiCall('updateVideo', 'PATCH', '/vimeo-videos/{video_id}/', {
    path: { video_id: id },
    body,
    response: Video,
  });
}

export function deleteVideo(id: Id) {
  return apiCall('deleteVideo', 'DELETE', '/vimeo-videos/{video_id}/', { path: { video_id: id } });
}

export function updateVideoSettings(body: VideoSettingsUpdate) {
  return apiCall('updateVideoSettings', 'PUT', '/vimeo-videos/settings', { body, response: VideoSettings });
}

export function requestVideoSync(courseId: Id) {
  return apiCall('requestVideoSync', 'PUT', '/vimeo-videos/sync', {
    body: { course: courseId },
    response: VideoSync,
  });
}

export function getVideoSync(courseId: Id, signal?: AbortSignal) {
  return apiCall('getVideoSync', 'GET', '/vimeo-videos/sync', {
    query: { course: courseId },
    response: VideoSyncStatus,
    signal,
  });
}

/** The caller's own figures in the course (a course has at most 100 videos a student watches per page). */
export function listMyVideoStats(courseId: Id, userId: Id, signal?: AbortSignal) {
  return apiCall('listMyVideoStats', 'GET', '/video-stats/', {
    query: { course: courseId, user: userId, limit: 100 },
    response: VideoStatList,
    signal,
  });
}

export function reportWatch(body: VideoStatCreate) {
  return apiCall('reportWatch', 'POST', '/video-stats/', { body, response: VideoStat });
}

export function getVideoTable(courseId: Id, query: Partial<VideoTableQuery>, signal?: AbortSignal) {
  return apiCall('getVideoTable', 'GET', '/video-stats/course/{course_id}/', {
    path: { course_id: courseId },
    query: { ...query },
    response: VideoTable,
    signal,
  });
}

export function downloadVideoTableCsv(courseId: Id) {
  return apiDownload('downloadVideoTableCsv', '/video-stats/course/{course_id}/csv/', {
    path: { course_id: courseId },
    accept: 'text/csv',
  });
}

/** Uploads a video file (the fields go first: the server checks who may upload before reading the file). */
export function uploadVideoFile(courseId: Id, fields: { name: string; duration: number }, file: File) {
  const body = new FormData();
  body.append('name', fields.name);
  body.append('duration', String(fields.duration));
  body.append('file', file);
  return apiCall('uploadVideoFile', 'POST', '/vimeo-videos/upload', {
    query: { course: courseId },
    body,
    response: Video,
  });
}
