import {
  ForumCommentList,
  ForumFile,
  ForumRecord,
  ForumRecordList,
  ForumSignedUrl,
  ForumTemplateList,
  ForumUpvoteState,
  ForumUpvoteUsers,
  ForumUserStatus,
  type ForumAnnouncementRequest,
  type ForumOrdering,
  type ForumRecordCreate,
  type ForumRecordReplace,
  type ForumRecordUpdate,
  type Language,
} from '@kadai/contracts';
import { z } from 'zod';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

/** The list filters the Forum page can send (`Forum/Record/` and `Forum/Record/announcements/`). */
export interface ForumListParams {
  course: number;
  /** `announcements`: `Forum/Record/announcements/` (needed for `scheduled_ones`); else `Forum/Record/`. */
  endpoint: 'records' | 'announcements';
  is_announcement?: boolean;
  scheduled_ones?: boolean;
  unread_only?: boolean;
  pinned_only?: boolean;
  user_id?: number;
  full_text_search?: string;
  ordering: ForumOrdering;
  limit: number;
}

/** Where the next page starts: the previous page's `next_cursor`, or an offset when there is none. */
export interface ForumPageParam {
  cursor?: string;
  offset?: number;
}

const flag = (value: boolean | undefined) => (value ? 'true' : undefined);

export function listForumRecords(params: ForumListParams, page: ForumPageParam, signal?: AbortSignal) {
  const { endpoint, ...query } = params;
  const template = endpoint === 'announcements' ? '/Forum/Record/announcements/' : '/Forum/Record/';
  return apiCall('listForumRecords', 'GET', template, {
    query: {
      ...query,
      is_announcement: query.is_announcement === undefined ? undefined : String(query.is_announcement),
      scheduled_ones: flag(query.scheduled_ones),
      unread_only: flag(query.unread_only),
      pinned_only: flag(query.pinned_only),
      cursor: page.cursor,
      offset: page.cursor ? undefined : page.offset,
    },
    response: ForumRecordList,
    signal,
  });
}

/** The caller's unread topics of the course: one row asked for, `unread_count` is what matters. */
export function getForumUnread(courseId: Id, signal?: AbortSignal) {
  return apiCall('getForumUnread', 'GET', '/Forum/Record/', {
    query: { course: courseId, unread_only: 'true', limit: 1 },
    response: ForumRecordList,
    signal,
  });
}

export function getForumRecord(id: Id, signal?: AbortSignal) {
  return apiCall('getForumRecord', 'GET', '/Forum/Record/{id}/', {
    path: { id },
    response: ForumRecord,
    signal,
  });
}

export function createForumRecord(body: ForumRecordCreate) {
  return apiCall('createForumRecord', 'POST', '/Forum/Record/', { body, response: ForumRecord });
}

export function replaceForumRecord(id: Id, body: ForumRecordReplace) {
  return apiCall('replaceForumRecord', 'PUT', '/Forum/Record/{id}/', {
    path: { id },
    body,
    response: ForumRecord,
  });
}

export function updateForumRecord(id: Id, body: ForumRecordUpdate) {
  return apiCall('updateForumRecord', 'PATCH', '/Forum/Record/{id}/', {
    path: { id },
    body,
    response: ForumRecord,
  });
}

export function deleteForumRecord(id: Id) {
  return apiCall('deleteForumRecord', 'DELETE', '/Forum/Record/{id}/', { path: { id } });
}

export function makeAnnouncement(id: Id, body: ForumAnnouncementRequest = {}) {
  return apiCall('makeAnnouncement', 'PUT', '/Forum/Record/{id}/announcement/', {
    path: { id },
    body,
    response: ForumRecord,
  });
}

export function makeDiscussion(id: Id) {
  return apiCall('makeDiscussion', 'DELETE', '/Forum/Record/{id}/announcement/', {
    path: { id },
    response: ForumRecord,
  });
}

export function setUpvote(id: Id, upvoted: boolean) {
  return apiCall('setUpvote', upvoted ? 'PUT' : 'DELETE', '/Forum/Record/{id}/upvote/', {
    path: { id },
    response: ForumUpvoteState,
  });
}

export function getUpvoters(id: Id, signal?: AbortSignal) {
  return apiCall('getUpvoters', 'GET', '/Forum/ForumUpvoteUsers/{forum_id}/', {
    path: { forum_id: id },
    response: ForumUpvoteUsers,
    signal,
  });
}

export function setReadState(id: Id, isRead: boolean) {
  return apiCall('setReadState', 'PUT', '/Forum/ForumUserStatus/{forum_id}/', {
    path: { forum_id: id },
    body: { is_read: isRead },
    response: ForumUserStatus,
  });
}

export function listComments(parentId: Id, offset: number, limit: number, signal?: AbortSignal) {
  return apiCall('listComments', 'GET', '/Forum/Comment/', {
    query: { parent_record: parentId, offset, limit },
    response: ForumCommentList,
    signal,
  });
}

/** Files into the caller's tray of this course; attached to a post when it is saved with their ids. */
export function uploadForumFiles(courseId: Id, files: readonly File[]) {
  const body = new FormData();
  for (const file of files) body.append('file', file, file.name);
  return apiCall('uploadForumFiles', 'POST', '/Forum/ForumFileUpload/{id}/', {
    path: { id: courseId },
    body,
    response: z.array(ForumFile),
  });
}

export function deleteForumFile(fileId: Id) {
  return apiCall('deleteForumFile', 'DELETE', '/Forum/ForumFileUpload/{id}/', { path: { id: fileId } });
}

export function getSignedUrl(fileId: Id, signal?: AbortSignal) {
  return apiCall('getSignedUrl', 'GET', '/Forum/ForumSignedURL/', {
    query: { file: fileId },
    response: ForumSignedUrl,
    signal,
  });
}

export function listTemplates(courseId: Id, lang: Language, signal?: AbortSignal) {
  return apiCall('listTemplates', 'GET', '/Forum/Templates/', {
    query: { course: courseId, lang },
    response: ForumTemplateList,
    signal,
  });
}
