import { and, desc, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recentWindow } from '../../db/recent.ts';
import { snippetRuns } from '../../db/schema-cluster.ts';
import { courseEditors, courses } from '../../db/schema.ts';
import { assignments, submissions } from '../../db/schema-assignments.ts';
import { graderHosts } from '../../db/schema-cluster.ts';

/** A host is alive while its heartbeat is younger than this. */
export const HOST_ALIVE_SECONDS = 30;
export const RECENT_JOBS = 20;
/** At most this many running jobs are listed (a console, not a report). */
export const RUNNING_JOBS = 100;

export interface JobRow {
  submissionId: number;
  assignmentTitle: string;
  courseId: number;
  courseTitle: string;
  status: (typeof submissions.$inferSelect)['status'];
  queuedAt: Date | null;
  startedAt: Date | null;
  gradedAt: Date | null;
  graderHost: string | null;
  score: number | null;
  maxScore: number | null;
}

const jobColumns = {
  submissionId: submissions.id,
  assignmentTitle: assignments.title,
  courseId: submissions.courseId,
  courseTitle: courses.title,
  status: submissions.status,
  queuedAt: submissions.queuedAt,
  startedAt: submissions.startedAt,
  gradedAt: submissions.gradedAt,
  graderHost: submissions.graderHost,
  score: submissions.score,
  maxScore: submissions.maxScore,
};

export async function isEditorOfAnyCourse(db: Executor, userId: number): Promise<boolean> {
  const rows = await db
    .select({ courseId: courseEditors.courseId })
    .from(courseEditors)
    .where(eq(courseEditors.userId, userId))
    .limit(1);
  return rows.length > 0;
}

/** Every submission waiting for a grader (all courses: the load, not whose it is). */
export async function countQueued(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(submissions)
    .where(eq(submissions.status, 'Scheduled'));
  return row?.n ?? 0;
}

/** `null`: every course (staff); otherwise the courses the user edits. */
function inCourses(editorId: number | null): SQL | undefined {
  if (editorId === null) return undefined;
  return inArray(
    submissions.courseId,
    sql`(select ${courseEditors.courseId} from ${courseEditors} where ${courseEditors.userId} = ${editorId})`,
  );
}

export function listRunningJobs(db: Executor, editorId: number | null): Promise<JobRow[]> {
  return db
    .select(jobColumns)
    .from(submissions)
    .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
    .innerJoin(courses, eq(courses.id, submissions.courseId))
    .where(and(eq(submissions.status, 'Executing'), inCourses(editorId)))
    .orderBy(submissions.startedAt)
    .limit(RUNNING_JOBS);
}

export function listRecentJobs(db: Executor, editorId: number | null): Promise<JobRow[]> {
  return db
    .select(jobColumns)
    .from(submissions)
    .innerJoin(assignments, eq(assignments.id, submissions.assignmentId))
    .innerJoin(courses, eq(courses.id, submissions.courseId))
    .where(and(isNotNull(submissions.gradedAt), inCourses(editorId)))
    .orderBy(desc(submissions.gradedAt), desc(submissions.id))
    .limit(RECENT_JOBS);
}

export function listHosts(db: Executor) {
  return db
    .select({
      id: graderHosts.id,
      hostname: graderHosts.hostname,
      pid: graderHosts.pid,
      startedAt: graderHosts.startedAt,
      lastSeenAt: graderHosts.lastSeenAt,
      alive:
        sql<boolean>`${graderHosts.lastSeenAt} > now() - make_interval(secs => ${HOST_ALIVE_SECONDS})`.mapWith(
          Boolean,
        ),
      sandboxOk: graderHosts.sandboxOk,
      sandboxDetail: graderHosts.sandboxDetail,
      concurrency: graderHosts.concurrency,
      running: graderHosts.running,
      graded: graderHosts.graded,
    })
    .from(graderHosts)
    .orderBy(desc(graderHosts.lastSeenAt));
}

/* ─── Snippet runs: the per-person rate holds across every instance ─────────────────────────── */

/** Held until commit: one person's snippet runs are counted one after the other. */
export async function lockSnippetsOf(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`snippet-runs:${userId}`}))`);
}

/**
 * How many snippets the user ran within the last `windowSeconds`, and in how many seconds the oldest of
 * them leaves the window.
 */
export async function countRecentSnippets(
  db: Executor,
  userId: number,
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const recent = recentWindow(snippetRuns.createdAt, windowSeconds);
  const [row] = await db
    .select(recent.columns)
    .from(snippetRuns)
    .where(and(eq(snippetRuns.userId, userId), recent.inWindow));
  return row ?? { count: 0, retryAfterSeconds: 0 };
}

/** Records a snippet run, and forgets the user's that are more than an hour old. */
export async function recordSnippet(db: Executor, userId: number): Promise<void> {
  await db
    .delete(snippetRuns)
    .where(and(eq(snippetRuns.userId, userId), lt(snippetRuns.createdAt, sql`now() - interval '1 hour'`)));
  await db.insert(snippetRuns).values({ userId });
}
