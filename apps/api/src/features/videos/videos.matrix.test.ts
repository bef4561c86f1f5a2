import { createVideoWorld, FAKE_MP4, uploadVideoFile } from './testing.ts';
import { call } from '../../../test/harness.ts';
import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';

/**
 * Every route of lecture videos × every kind of caller → the exact status (apps/api/test/matrix.ts
 * walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createVideoWorld>>;

type Row = MatrixRow<World, Caller>;

const CALLERS: Caller[] = ['anonymous', 'student', 'editor', 'otherEditor', 'staff'];

/** Members read (outsiders 404); editors of the course and staff manage (students 403). */
const read = { anonymous: 401, student: 200, editor: 200, otherEditor: 404, staff: 200 };
const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });

const one = (w: World) => `/api/vimeo-videos/${w.video.id}/`;
const stat = (w: World) => `/api/video-stats/${w.stat.id}/`;
const table = (w: World) => `/api/video-stats/course/${w.course.id}/`;
const withCourse = (path: string) => (w: World) => `${path}?course=${w.course.id}`;

const MATRIX: Row[] = [
  { method: 'GET', route: '/api/vimeo-videos', url: withCourse('/api/vimeo-videos'), expected: read },
  {
    method: 'POST',
    route: '/api/vimeo-videos',
    url: () => '/api/vimeo-videos',
    // An id per caller (11 characters, as YouTube's): adding one video twice is a conflict (409).
    body: (w, { caller }) => ({
      course: w.course.id,
      platform: 'youtube',
      video_id: caller.padEnd(11, '0').slice(0, 11),
      name: 'Guest',
      duration: 60,
    }),
    expected: manage(201),
  },
  {
    method: 'PUT',
    route: '/api/vimeo-videos/settings',
    url: () => '/api/vimeo-videos/settings',
    body: (w) => ({ course: w.course.id, completion_percent: 75 }),
    expected: manage(200),
  },
  {
    method: 'PUT',
    route: '/api/vimeo-videos/sync',
    url: () => '/api/vimeo-videos/sync',
    body: (w) => ({ course: w.course.id }),
    // No VIMEO_ACCESS_TOKEN here: managers are told so.
    expected: manage(409),
  },
  {
    method: 'GET',
    route: '/api/vimeo-videos/sync',
    url: withCourse('/api/vimeo-videos/sync'),
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/vimeo-videos/{video_id}/name',
    url: (w) => `/api/vimeo-videos/${w.video.id}/name`,
    expected: read,
  },
  { method: 'GET', route: '/api/vimeo-videos/{video_id}/', url: one, expected: read },
  {
    method: 'PATCH',
    route: '/api/vimeo-videos/{video_id}/',
    url: one,
    body: () => ({ name: 'Renamed' }),
    expected: manage(200),
  },
  { method: 'DELETE', route: '/api/vimeo-videos/{video_id}/', url: one, expected: manage(204) },
  {
    method: 'GET',
    route: '/api/video-stats/',
    url: () => '/api/video-stats/',
    // Everyone signed in reads their own.
    expected: { anonymous: 401, student: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
  {
    method: 'POST',
    route: '/api/video-stats/',
    url: () => '/api/video-stats/',
    body: (w) => ({ video: w.video.id, intervals: [[0, 5]] }),
    // The student already has a row of this video (200); the others' first report creates theirs.
    expected: { anonymous: 401, student: 200, editor: 201, otherEditor: 404, staff: 201 },
  },
  { method: 'GET', route: '/api/video-stats/{id}/', url: stat, expected: read },
  {
    method: 'PUT',
    route: '/api/video-stats/{id}/',
    url: stat,
    body: () => ({ intervals: [[0, 5]] }),
    // Only the viewer writes their figures; managers read them.
    expected: { anonymous: 401, student: 200, editor: 403, otherEditor: 404, staff: 403 },
  },
  {
    method: 'PATCH',
    route: '/api/video-stats/{id}/',
    url: stat,
    body: () => ({ position: 3 }),
    expected: { anonymous: 401, student: 200, editor: 403, otherEditor: 404, staff: 403 },
  },
  { method: 'GET', route: '/api/video-stats/course/{course_id}/', url: table, expected: manage(200) },
  {
    method: 'POST',
    route: '/api/vimeo-videos/upload',
    send: async (w, token, { t }) => ({
      status: (await uploadVideoFile(t, w.course.id, token, { filename: 'a.mp4', content: FAKE_MP4 }))
        .statusCode,
    }),
    expected: manage(201),
  },
  {
    method: 'GET',
    route: '/api/VideoFile/{token}',
    // The signed address is the credential: whoever holds it streams the file.
    send: async (w, token, { t }) => {
      const uploaded = await uploadVideoFile(t, w.course.id, w.tokens.editor, {
        filename: 'a.mp4',
        content: FAKE_MP4,
      });
      const url = String((uploaded.json() as { stream_url: string }).stream_url);
      return call(t, 'GET', url, { token });
    },
    expected: { anonymous: 200, student: 200, editor: 200, otherEditor: 200, staff: 200 },
  },
  {
    method: 'GET',
    route: '/api/video-stats/course/{course_id}/csv/',
    url: (w) => `${table(w)}csv/`,
    expected: manage(200),
  },
];

describeMatrix<World, Caller>({
  title: 'videos: authorization matrix',
  callers: CALLERS,
  world: createVideoWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) =>
    ['/api/vimeo-videos', '/api/video-stats', '/api/VideoFile'].some((prefix) => path.startsWith(prefix)),
});
