import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimilarityPairView, SimilarityReport, SimilarityReportList } from '@kadai/contracts';
import { eq } from 'drizzle-orm';
import {
  runSimilarityReport,
  startSimilarityWorker,
  type SimilarityWorker,
} from '@kadai/grader/similarity-job';
import { similarityReports } from '../../db/schema-similarity.ts';
import { addEditor, addStudent } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertAssignment, insertSubmission } from '../assignments/testing.ts';
import { insertFile } from '../submissions/testing.ts';
import { assignmentCourses } from '../../db/schema-assignments.ts';
import { ORIGINAL } from '@kadai/grader/similarity-fixtures';
import { createSimilarityWorld, quietLog, similarityBase, type SimilarityWorld } from './testing.ts';

let t: TestApp;
let worker: SimilarityWorker;
let w: SimilarityWorld;

beforeAll(async () => {
  t = await createTestApp({ jobs: true });
  // What the embedded grader (or a grader host) runs: the report's job is worked by the queue.
  worker = await startSimilarityWorker({
    sql: t.database,
    jobs: t.ctx.jobs,
    log: quietLog,
    pollingIntervalSeconds: 0.5,
  });
  w = await createSimilarityWorld(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

async function untilFinished(token: string, reportId: number) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const res = await call(t, 'GET', `/api/Similarity/${reportId}/?threshold=0`, { token });
    const report = SimilarityReport.parse(res.body);
    if (report.status === 'done' || report.status === 'failed') return report;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the similarity report never finished');
}

describe('similarity reports', () => {
  let reportId: number;

  it('queues a report (202), which the job then completes', async () => {
    const res = await call(t, 'POST', similarityBase(w), { token: w.tokens.editor, body: {} });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'queued', course_id: w.course.id, submission_count: 0 });
    reportId = Number(res.json.id);

    const report = await untilFinished(w.tokens.editor, reportId);
    expect(report).toMatchObject({ status: 'done', error: null, submission_count: 3 });
    expect(report.finished_at).not.toBeNull();

    const list = SimilarityReportList.parse(
      (await call(t, 'GET', similarityBase(w), { token: w.tokens.editor })).body,
    );
    expect(list.results.map((r) => r.id)).toContain(reportId);
  });

  it('ranks the disguised copy first, compares counted submissions only, and clusters the pair', async () => {
    const res = await call(t, 'GET', `/api/Similarity/${reportId}/?threshold=0.5`, {
      token: w.tokens.editor,
    });
    expect(res.status).toBe(200);
    const report = SimilarityReport.parse(res.body);
    expect(report.pairs_at_threshold).toBe(1);
    const [top] = report.pairs;
    expect(top?.similarity).toBeGreaterThan(0.5);
    expect([top?.left.submission_id, top?.right.submission_id].sort()).toEqual(
      [w.submissions.original.id, w.submissions.copy.id].sort(),
    );
    expect([top?.left.user.email, top?.right.user.email]).toContain(w.users.classmate.email);
    expect(top?.longest_fragment.tokens).toBeGreaterThan(30);
    expect(top?.fragments.length).toBeGreaterThan(0);
    expect(report.clusters).toEqual([
      {
        user_ids: [w.users.student.id, w.users.classmate.id].sort((a, b) => a - b),
        size: 2,
        max_similarity: top?.similarity,
      },
    ]);
    const all = SimilarityReport.parse(
      (await call(t, 'GET', `/api/Similarity/${reportId}/?threshold=0&limit=1`, { token: w.tokens.staff }))
        .body,
    );
    expect(all.pairs).toHaveLength(1);
    expect(all.pairs_at_threshold).toBeGreaterThan(1);
  });

  it('runs a report once however often its job comes, and fails one whose input is broken', async () => {
    const before = SimilarityReport.parse(
      (await call(t, 'GET', `/api/Similarity/${reportId}/`, { token: w.tokens.staff })).body,
    );
    await runSimilarityReport(t.database, reportId, quietLog);
    const after = SimilarityReport.parse(
      (await call(t, 'GET', `/api/Similarity/${reportId}/`, { token: w.tokens.staff })).body,
    );
    expect(after).toEqual(before);

    const [broken] = await t.ctx.db
      .insert(similarityReports)
      .values({ assignmentId: w.assignment.id, courseId: w.course.id, input: { submissions: 'none' } })
      .returning();
    await runSimilarityReport(t.database, broken!.id, quietLog);
    const [row] = await t.ctx.db.select().from(similarityReports).where(eq(similarityReports.id, broken!.id));
    expect(row).toMatchObject({ status: 'failed', input: null });
    expect(row?.error).toBeTruthy();
  });

  it('exports the pairs as CSV', async () => {
    const res = await call(t, 'GET', `/api/Similarity/${reportId}/csv/?threshold=0.5`, {
      token: w.tokens.editor,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`similarity-report-${reportId}.csv`);
    const lines = String(res.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^similarity,longest_fragment_tokens,longest_fragment_lines,overlap_tokens,/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(w.users.classmate.email);
  });

  it('shows a pair side by side in either order, fragments on the right sides', async () => {
    const { original, copy } = w.submissions;
    const url = (a: number, b: number) => `/api/Similarity/${reportId}/pair/${a}/${b}/`;
    const forward = SimilarityPairView.parse(
      (await call(t, 'GET', url(original.id, copy.id), { token: w.tokens.editor })).body,
    );
    expect(forward.left.submission_id).toBe(original.id);
    expect(forward.left.content).toBe(ORIGINAL);
    expect(forward.right.content).toContain('def mid_value(data):');
    const backward = SimilarityPairView.parse(
      (await call(t, 'GET', url(copy.id, original.id), { token: w.tokens.editor })).body,
    );
    expect(backward.fragments[0]?.left).toEqual(forward.fragments[0]?.right);
    for (const f of forward.fragments) {
      expect(f.left.end_line).toBeLessThanOrEqual(ORIGINAL.split('\n').length);
    }
    const missing = await call(t, 'GET', url(original.id, 2_000_000), { token: w.tokens.editor });
    expect(missing.status).toBe(404);
  });

  it('refuses students (403) and people outside the course (404); 404 for an assignment not in it', async () => {
    const student = await call(t, 'GET', `/api/Similarity/${reportId}/`, { token: w.tokens.classmate });
    expect(student.status).toBe(403);
    const studentPost = await call(t, 'POST', similarityBase(w), { token: w.tokens.student, body: {} });
    expect(studentPost.status).toBe(403);
    const outsider = await call(t, 'GET', `/api/Similarity/${reportId}/pair/1/2/`, {
      token: w.tokens.otherEditor,
    });
    expect(outsider.status).toBe(404);
    const elsewhere = await insertAssignment(t, { courses: [{ courseId: w.otherCourse.id }] });
    const res = await call(t, 'POST', `/api/Course/${w.course.id}/assignments/${elsewhere.id}/similarity/`, {
      token: w.tokens.editor,
      body: {},
    });
    expect(res.status).toBe(404);
  });

  it('adds another course the editor also edits, and refuses one they do not (400)', async () => {
    const refused = await call(t, 'POST', similarityBase(w), {
      token: w.tokens.editor,
      body: { include_course_id: w.otherCourse.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.include_course_id).toBeDefined();

    // Last year's course, with the same assignment and a student who wrote the original.
    await addEditor(t, w.otherCourse.id, w.users.editor.id);
    await t.ctx.db.insert(assignmentCourses).values({
      assignmentId: w.assignment.id,
      courseId: w.otherCourse.id,
      opensAt: new Date(),
      dueAt: new Date(),
    });
    await addStudent(t, w.otherCourse.id, w.users.honest.id);
    const old = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.otherCourse.id,
      userId: w.users.honest.id,
      score: 10,
    });
    await insertFile(t, old.id, 'main.py', ORIGINAL);
    const res = await call(t, 'POST', similarityBase(w), {
      token: w.tokens.editor,
      body: { include_course_id: w.otherCourse.id },
    });
    expect(res.status).toBe(202);
    const report = await untilFinished(w.tokens.editor, Number(res.json.id));
    expect(report).toMatchObject({
      status: 'done',
      submission_count: 4,
      include_course_id: w.otherCourse.id,
    });
    expect(report.pairs[0]?.similarity).toBe(1);
    expect([report.pairs[0]?.left.course_id, report.pairs[0]?.right.course_id]).toContain(w.otherCourse.id);
  });
});
