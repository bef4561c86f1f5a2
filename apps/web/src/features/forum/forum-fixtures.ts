import type { ForumFile, ForumRecord } from '@kadai/contracts';
import { json, type RecordedRequest } from '../../test/fetch.ts';

/** Test data and a fake API for the forum pages' component tests. */

export const course = (role: 'student' | 'editor') => ({
  id: 1,
  title: 'Python',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: 'Asia/Tokyo',
  created_at: '2026-04-01T00:00:00Z',
  updated_at: '2026-04-01T00:00:00Z',
  my_role: role,
  editor_count: 1,
  student_count: 3,
});

export function record(fields: Partial<ForumRecord> & Pick<ForumRecord, 'id' | 'title'>): ForumRecord {
  return {
    course_id: 1,
    parent_record: null,
    content: 'Hello **class**.',
    author: { id: 2, display_name: 'Ada Teacher', first_name: 'Ada', last_name: 'Teacher', role: 'editor' },
    is_announcement: true,
    pinned: false,
    scheduled_at: null,
    published_at: '2026-05-01T00:00:00.000Z',
    upvotes: 0,
    upvoted: false,
    is_read: true,
    comment_count: 0,
    attachments: [],
    can_edit: false,
    created_at: '2026-05-01T00:00:00.000Z',
    updated_at: '2026-05-01T00:00:00.000Z',
    updated_by: 2,
    last_activity_at: '2026-05-01T00:00:00.000Z',
    ...fields,
  };
}

export function file(fields: Partial<ForumFile> & Pick<ForumFile, 'id' | 'filename'>): ForumFile {
  return {
    course_id: 1,
    record_id: null,
    size: 1000,
    content_type: 'text/plain',
    is_image: false,
    uploaded_by: 4,
    created_at: '2026-05-01T00:00:00.000Z',
    ...fields,
  };
}

export function list(results: ForumRecord[], unreadCount: number) {
  return {
    count: results.length,
    limit: 20,
    offset: 0,
    results,
    count_exact: true,
    next_cursor: null,
    unread_count: unreadCount,
  };
}

export interface FakeForum {
  role: 'student' | 'editor';
  records: ForumRecord[];
  comments?: ForumRecord[];
  unread: number;
}

/** Answers the calls the forum pages make, from `state` (mutated by writes so refetches see them). */
export function forumServer(state: FakeForum) {
  let nextFileId = 100;
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    const method = request.method;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(state.role));
    if (path === '/api/Forum/Templates/') return json(200, []);
    if (path === '/api/Forum/Record/' && method === 'GET') {
      const query = url.searchParams;
      let rows = state.records.filter((r) => r.parent_record === null);
      if (query.get('unread_only') === 'true') rows = rows.filter((r) => !r.is_read);
      if (query.get('is_announcement') !== null)
        rows = rows.filter((r) => String(r.is_announcement) === query.get('is_announcement'));
      rows = [...rows].sort((a, b) => Number(b.pinned) - Number(a.pinned));
      return json(200, list(rows.slice(0, Number(query.get('limit') ?? 20)), state.unread));
    }
    if (path === '/api/Forum/Record/announcements/') {
      return json(
        200,
        list(
          state.records.filter((r) => r.published_at === null),
          state.unread,
        ),
      );
    }
    if (path === '/api/Forum/Record/' && method === 'POST') {
      return json(201, record({ id: 50, title: 'New', can_edit: true }));
    }
    const recordMatch = /^\/api\/Forum\/Record\/(\d+)\/$/.exec(path);
    if (recordMatch) {
      const found = state.records.find((r) => r.id === Number(recordMatch[1]));
      return found ? json(200, found) : json(404, { detail: 'Not found.', code: 'not_found' });
    }
    const upvoteMatch = /^\/api\/Forum\/Record\/(\d+)\/upvote\/$/.exec(path);
    if (upvoteMatch) {
      const found = state.records.find((r) => r.id === Number(upvoteMatch[1]))!;
      const upvoted = method === 'PUT';
      found.upvotes += upvoted === found.upvoted ? 0 : upvoted ? 1 : -1;
      found.upvoted = upvoted;
      return json(200, { id: found.id, upvotes: found.upvotes, upvoted });
    }
    const statusMatch = /^\/api\/Forum\/ForumUserStatus\/(\d+)\/$/.exec(path);
    if (statusMatch) {
      const found = state.records.find((r) => r.id === Number(statusMatch[1]))!;
      const body = request.body;
      const isRead = typeof body === 'object' && body !== null && 'is_read' in body && body.is_read === true;
      if (found.is_read !== isRead) state.unread += isRead ? -1 : 1;
      found.is_read = isRead;
      return json(200, { id: found.id, is_read: isRead, unread_count: state.unread });
    }
    if (path.startsWith('/api/Forum/ForumUpvoteUsers/')) {
      return json(200, {
        count: 1,
        results: [
          { id: 4, display_name: 'Bob Student', first_name: 'Bob', last_name: 'Student', role: 'student' },
        ],
      });
    }
    if (path === '/api/Forum/Comment/') {
      const comments = state.comments ?? [];
      return json(200, { count: comments.length, limit: 20, offset: 0, results: comments });
    }
    if (path === '/api/Forum/ForumFileUpload/1/' && method === 'POST') {
      nextFileId += 1;
      return json(201, [file({ id: nextFileId, filename: `upload-${nextFileId}.txt` })]);
    }
    if (path.startsWith('/api/Forum/ForumFileUpload/') && method === 'DELETE')
      return new Response(null, { status: 204 });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}
