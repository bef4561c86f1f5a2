import type { CsvQuery } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { findAssignment, listLinks } from '../assignments/assignments.service.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { toCsv, type CsvCell } from './csv-format.ts';
import * as standings from './standings.repo.ts';

/** The students of a course, in the order the CSV exports list them (quizzes' results export too). */
export { listCourseStudents, type StudentRow } from './standings.repo.ts';

export const CSV_HEADER = [
  'student_id',
  'email',
  'last_name',
  'first_name',
  'submission_id',
  'chosen',
  'score',
  'max_score',
  'status',
  'late',
  'submitted_at',
  'graded_at',
  'submissions',
] as const;

/** A file name from the titles, without characters file systems refuse. */
function fileNameOf(assignmentTitle: string, courseTitle: string): string {
  const clean = (text: string) =>
    text
      .replace(/[\\/:*?"<>|\p{Cc}]/gu, '_')
      .trim()
      .slice(0, 80);
  return `${clean(assignmentTitle)} - ${clean(courseTitle)} - submissions.csv`;
}

/**
 * `GET Submission/csv/`: managers of the course (a student of it gets 403, anyone else 404). One row per
 * student of the course, those who never submitted included: their final submission (else their best)
 * with `choose=final`, their best with `choose=best`; `none` when there is nothing to show.
 */
export async function exportCsv(
  ctx: AppContext,
  actor: Actor,
  query: CsvQuery,
): Promise<{ body: string; contentDisposition: string }> {
  const role = await getCourseRole(ctx.db, actor, query.course_id);
  if (role === 'student') throw forbidden('Only editors of the course and staff can download submissions.');
  const assignment = await findAssignment(ctx.db, query.assignment_id);
  const link =
    assignment &&
    (await listLinks(ctx.db, [assignment.id], actor.userId)).find((l) => l.courseId === query.course_id);
  if (!assignment || !link) throw notFound();

  const [students, best, finals, counts] = await Promise.all([
    standings.listCourseStudents(ctx.db, query.course_id),
    standings.listBestSubmissions(ctx.db, assignment.id, query.course_id),
    standings.listFinalSubmissions(ctx.db, assignment.id, query.course_id),
    standings.countSubmissionsByAuthor(ctx.db, assignment.id, query.course_id),
  ]);
  const rows: CsvCell[][] = students.map((student) => {
    const final = query.choose === 'final' ? finals.get(student.id) : undefined;
    const chosen = final ?? best.get(student.id);
    const label = chosen ? (final ? 'final' : 'best') : 'none';
    return [
      student.id,
      student.email,
      student.lastName,
      student.firstName,
      chosen?.id ?? null,
      label,
      chosen?.score ?? null,
      chosen?.maxScore ?? null,
      chosen?.status ?? null,
      chosen ? chosen.isLate : null,
      chosen?.createdAt.toISOString() ?? null,
      chosen?.gradedAt?.toISOString() ?? null,
      counts.get(student.id) ?? 0,
    ];
  });
  return {
    body: toCsv(CSV_HEADER, rows),
    contentDisposition: contentDisposition(fileNameOf(assignment.title, link.courseTitle)),
  };
}
