import { describeMatrix, type MatrixRow } from '../../../test/matrix.ts';
import { createDoneReport, createSimilarityWorld, similarityBase, type SimilarityWorld } from './testing.ts';

/**
 * Every route of similarity reports × every kind of caller → the exact status: the course's editors and
 * staff; its student 403; an editor of another course 404 (apps/api/test/matrix.ts walks the rows).
 */
type Caller = 'anonymous' | 'student' | 'editor' | 'otherEditor' | 'staff';
type Row = MatrixRow<SimilarityWorld, Caller>;

const manage = (ok: number) => ({ anonymous: 401, student: 403, editor: ok, otherEditor: 404, staff: ok });

const MATRIX: Row[] = [
  {
    method: 'POST',
    route: '/api/Course/{id}/assignments/{assignment_id}/similarity/',
    url: similarityBase,
    body: () => ({}),
    expected: manage(202),
  },
  {
    method: 'GET',
    route: '/api/Course/{id}/assignments/{assignment_id}/similarity/',
    url: similarityBase,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/Similarity/{report_id}/',
    url: async (w, cell) => `/api/Similarity/${await createDoneReport(cell.t, w)}/`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/Similarity/{report_id}/csv/',
    url: async (w, cell) => `/api/Similarity/${await createDoneReport(cell.t, w)}/csv/`,
    expected: manage(200),
  },
  {
    method: 'GET',
    route: '/api/Similarity/{report_id}/pair/{left}/{right}/',
    url: async (w, cell) =>
      `/api/Similarity/${await createDoneReport(cell.t, w)}/pair/${w.submissions.original.id}/${w.submissions.copy.id}/`,
    expected: manage(200),
  },
];

describeMatrix<SimilarityWorld, Caller>({
  title: 'similarity: authorization matrix',
  callers: ['anonymous', 'student', 'editor', 'otherEditor', 'staff'],
  world: createSimilarityWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path.includes('/similarity/') || path.startsWith('/api/Similarity/'),
  app: { jobs: true },
});
