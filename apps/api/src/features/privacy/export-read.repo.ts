import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import type { ExportRule } from './tables.ts';

/* What a data export gathers (docs/privacy.md, "Export"): each table's rows that name the person. */

const JsonRows = z.object({ rows: z.array(z.object({ rows: z.array(z.unknown()) })) });
const textArray = (values: readonly string[]): SQL => sql`${sql.param([...values])}::text[]`;

/** `t.a = $id or t.b = $id`; false for no columns. */
function namesPerson(columns: readonly string[], userId: number): SQL {
  if (columns.length === 0) return sql`false`;
  return sql`(${sql.join(
    columns.map((column) => sql`t.${sql.identifier(column)} = ${userId}`),
    sql` or `,
  )})`;
}

async function jsonRows(db: Executor, query: SQL): Promise<unknown[]> {
  return JsonRows.parse(await db.execute(query)).rows[0]?.rows ?? [];
}

/**
 * The rows of `table` naming the person, as JSON objects keyed by column (ExportRule in tables.ts):
 * a subject's row whole less `omit`, an actor's row as `actorFields` only.
 */
export async function readTableForExport(
  db: Executor,
  table: string,
  rule: ExportRule,
  userId: number,
): Promise<unknown[]> {
  // subjectWhere is SQL written in tables.ts, never input.
  const subjectWhere = rule.subjectWhere ? sql` and (${sql.raw(rule.subjectWhere)})` : sql``;
  const isSubject =
    rule.subject.length > 0 ? sql`(${namesPerson(rule.subject, userId)}${subjectWhere})` : sql`false`;
  return jsonRows(
    db,
    sql`select coalesce(jsonb_agg(
          case when ${isSubject} then to_jsonb(t) - ${textArray(rule.omit ?? [])}
          else (select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
                from jsonb_each(to_jsonb(t)) e where e.key = some(${textArray(rule.actorFields ?? [])}))
          end order by t::text), '[]'::jsonb) as rows
        from ${sql.identifier(table)} t
        where ${isSubject} or ${namesPerson(rule.actor, userId)}`,
  );
}

/** The account itself, less its password hash. */
export async function readProfile(db: Executor, userId: number): Promise<unknown[]> {
  return jsonRows(
    db,
    sql`select coalesce(jsonb_agg(to_jsonb(u) - 'password_hash'), '[]'::jsonb) as rows
        from users u where u.id = ${userId}`,
  );
}

/** Whether the person manages a course (staff, or an editor of it): SQL on a course id. */
const manages = (courseId: SQL, userId: number) =>
  sql`(exists (select 1 from users m where m.id = ${userId} and m.is_staff)
       or exists (select 1 from course_editors ce where ce.course_id = ${courseId} and ce.user_id = ${userId}))`;

/** Their submissions, less the grader's bookkeeping. */
export async function readSubmissions(db: Executor, userId: number): Promise<unknown[]> {
  return jsonRows(
    db,
    sql`select coalesce(jsonb_agg(
          to_jsonb(s) - array['grading_token', 'grader_host'] order by s.id), '[]'::jsonb) as rows
        from submissions s where s.user_id = ${userId}`,
  );
}

/**
 * The results of their submissions as the submission page shows them to the person: a test's input,
 * expected output and the program's output only for `visible` tests (or when they manage the course);
 * for the others the outcome and points alone, as for a hidden test (after_due tests are shown in the
 * app once submissions close; the export does not decide that, so it withholds them).
 */
export async function readEvaluations(db: Executor, userId: number): Promise<unknown[]> {
  return jsonRows(
    db,
    sql`select coalesce(jsonb_agg(x.row order by x.submission_id, x.position, x.id), '[]'::jsonb) as rows
        from (
          select e.id, e.submission_id, tc.position,
            jsonb_build_object(
              'id', e.id, 'submission_id', e.submission_id, 'test_case_id', e.test_case_id,
              'test_case_name', tc.name, 'status', e.status, 'points', e.points,
              'max_points', tc.points, 'reason', e.reason, 'overridden', e.overridden_by is not null,
              'comment', e.comment, 'created_at', e.created_at
            ) || case when tc.visibility = 'visible' or ${manages(sql`s.course_id`, userId)} then
              jsonb_build_object(
                'stdin', tc.stdin, 'expected_stdout', tc.expected_stdout, 'stdout', e.stdout,
                'stderr', e.stderr, 'time_ms', e.time_ms, 'memory_kb', e.memory_kb,
                'exit_code', e.exit_code, 'signal', e.signal, 'checker_message', e.checker_message,
                'items', e.items)
            else jsonb_build_object('items', (
              select coalesce(jsonb_agg(jsonb_build_object('name', i->'name', 'outcome', i->'outcome',
                       'points', i->'points', 'max_points', i->'max_points')), '[]'::jsonb)
              from jsonb_array_elements(e.items) i))
            end as row
          from evaluations e
          join submissions s on s.id = e.submission_id
          join test_cases tc on tc.id = e.test_case_id
          where s.user_id = ${userId}
        ) x`,
  );
}

/** The files of their submissions, without the bytes. */
export async function readSubmissionFileList(db: Executor, userId: number): Promise<unknown[]> {
  return jsonRows(
    db,
    sql`select coalesce(jsonb_agg(jsonb_build_object(
          'id', f.id, 'submission_id', f.submission_id, 'filename', f.filename, 'size', f.size,
          'created_at', f.created_at) order by f.id), '[]'::jsonb) as rows
        from submission_files f join submissions s on s.id = f.submission_id
        where s.user_id = ${userId}`,
  );
}

const FileBytes = z.object({
  rows: z.array(
    z.object({
      id: z.coerce.number(),
      submission_id: z.coerce.number(),
      filename: z.string(),
      content: z.custom<Buffer | Uint8Array>((value) => value instanceof Uint8Array),
    }),
  ),
});

/** The next `limit` of their submitted files after file id `afterId`, with their bytes. */
export async function readSubmissionFiles(
  db: Executor,
  userId: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; submissionId: number; filename: string; content: Buffer }[]> {
  const result = await db.execute(
    sql`select f.id, f.submission_id, f.filename, f.content
        from submission_files f join submissions s on s.id = f.submission_id
        where s.user_id = ${userId} and f.id > ${afterId}
        order by f.id limit ${limit}`,
  );
  return FileBytes.parse(result).rows.map((row) => ({
    id: row.id,
    submissionId: row.submission_id,
    filename: row.filename,
    content: Buffer.from(row.content),
  }));
}

/** Rubric items ticked and line comments of their released reviews (what their feedback page shows). */
export async function readReviewDetails(
  db: Executor,
  userId: number,
): Promise<{ items: unknown[]; comments: unknown[] }> {
  const items = await jsonRows(
    db,
    sql`select coalesce(jsonb_agg(jsonb_build_object(
          'review_id', r.id, 'submission_id', r.submission_id, 'rubric_item_id', ri.id,
          'group_title', ri.group_title, 'title', ri.title, 'description', ri.description,
          'points', ri.points) order by r.id, ri.position, ri.id), '[]'::jsonb) as rows
        from review_items x
        join reviews r on r.id = x.review_id
        join rubric_items ri on ri.id = x.rubric_item_id
        where r.user_id = ${userId} and r.released_at is not null`,
  );
  const comments = await jsonRows(
    db,
    sql`select coalesce(jsonb_agg(to_jsonb(c) order by c.id), '[]'::jsonb) as rows
        from review_comments c join reviews r on r.id = c.review_id
        where r.user_id = ${userId} and r.released_at is not null`,
  );
  return { items, comments };
}

/**
 * Their quiz attempts and answers. A score, and whether an answer was right, only once the quiz shows
 * scores (or when they manage the course): an export must not tell what an open quiz does not.
 * Questions come with their prompt and options, never the answer key.
 */
export async function readQuizzes(
  db: Executor,
  userId: number,
): Promise<{ submissions: unknown[]; answers: unknown[] }> {
  const showsScores = sql`((qc.scores_visible_at is not null and qc.scores_visible_at <= now())
                            or ${manages(sql`qc.course_id`, userId)})`;
  const submissions = await jsonRows(
    db,
    sql`select coalesce(jsonb_agg(
          (to_jsonb(qs) - case when ${showsScores} then '{}'::text[] else array['score', 'max_score'] end)
          || jsonb_build_object('quiz_id', qc.quiz_id, 'course_id', qc.course_id, 'quiz_title', q.title)
          order by qs.id), '[]'::jsonb) as rows
        from quiz_submissions qs
        join quiz_courses qc on qc.id = qs.quiz_course_id
        join quizzes q on q.id = qc.quiz_id
        where qs.user_id = ${userId}`,
  );
  const answers = await jsonRows(
    db,
    sql`select coalesce(jsonb_agg(
          jsonb_build_object('submission_id', a.submission_id, 'question_id', a.question_id,
            'kind', qq.kind, 'prompt', qq.prompt, 'options', qq.options, 'answer', a.answer)
          || case when ${showsScores}
               then jsonb_build_object('is_correct', a.is_correct, 'points', a.points)
               else '{}'::jsonb end
          order by a.submission_id, qq.position, qq.id), '[]'::jsonb) as rows
        from quiz_answers a
        join quiz_submissions qs on qs.id = a.submission_id
        join quiz_courses qc on qc.id = qs.quiz_course_id
        join quiz_questions qq on qq.id = a.question_id
        where qs.user_id = ${userId}`,
  );
  return { submissions, answers };
}

const ForumFileRefs = z.object({
  rows: z.array(z.object({ id: z.coerce.number(), filename: z.string(), storage_key: z.string() })),
});

/** The forum attachments they uploaded: where their bytes are. */
export async function listForumUploads(
  db: Executor,
  userId: number,
): Promise<{ id: number; filename: string; storageKey: string }[]> {
  const result = await db.execute(
    sql`select id, filename, storage_key from forum_files where uploaded_by = ${userId} order by id`,
  );
  return ForumFileRefs.parse(result).rows.map((row) => ({
    id: row.id,
    filename: row.filename,
    storageKey: row.storage_key,
  }));
}

/* ─── The erasures' audit ────────────────────────────────────────────────────────────────────── */
