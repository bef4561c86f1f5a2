import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { assignmentMax, countedScore, hasCountedScore, reviewJoins } from '../../db/review-score.ts';
import { courseStudents, courses, users } from '../../db/schema.ts';
import { skillItems, skills } from '../../db/schema-assessment.ts';
import { key, type Results, type SkillColumn, type WorkColumn } from './analysis.ts';

/*
 * What assessment analysis reads: the course's columns (assignments, quizzes, skills with the points of
 * their items), its students, and their results. `userId` narrows the results to one student.
 */

const num = z.coerce.number();
const ColumnRows = z.object({
  rows: z.array(
    z.object({
      id: num,
      item_id: num,
      title: z.string(),
      due_at: num,
      max_score: num,
      visible_at: num.nullable(),
    }),
  ),
});
const PointRows = z.object({ rows: z.array(z.object({ owner: num, item: num, points: num })) });

export async function findCourse(db: Executor, courseId: number) {
  const [row] = await db
    .select({ id: courses.id, hasAssessment: courses.hasAssessment })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  return row ?? null;
}

/** Whether some skill of the course is tagged on something. */
export async function hasTaggedSkill(db: Executor, courseId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: skillItems.id })
    .from(skillItems)
    .innerJoin(skills, eq(skills.id, skillItems.skillId))
    .where(eq(skills.courseId, courseId))
    .limit(1);
  return row !== undefined;
}

function columns(rows: z.infer<typeof ColumnRows>['rows']): WorkColumn[] {
  return rows.map((r) => ({
    id: r.id,
    itemId: r.item_id,
    title: r.title,
    dueAt: r.due_at,
    maxScore: r.max_score,
    visibleAt: r.visible_at,
  }));
}

/** The course's assignments and quizzes in order of due date, each with the points it is out of. */
export async function loadWork(db: Executor, courseId: number) {
  const [assignmentRows, quizRows] = await Promise.all([
    db.execute(sql`
      select a.id, a.id as item_id, a.title, (extract(epoch from ac.due_at) * 1000)::float8 as due_at,
             ${assignmentMax(sql`coalesce((select sum(tc.points) from test_cases tc where tc.assignment_id = a.id and not tc.draft), 0)`)}::float8 as max_score,
             0::float8 as visible_at
      from assignment_courses ac join assignments a on a.id = ac.assignment_id
      where ac.course_id = ${courseId}
      order by ac.due_at, a.id`),
    db.execute(sql`
      select qc.id, q.id as item_id, q.title, (extract(epoch from qc.closes_at) * 1000)::float8 as due_at,
             coalesce((select sum(qq.points) from quiz_questions qq where qq.quiz_id = q.id), 0)::float8 as max_score,
             (extract(epoch from qc.scores_visible_at) * 1000)::float8 as visible_at
      from quiz_courses qc join quizzes q on q.id = qc.quiz_id
      where qc.course_id = ${courseId}
      order by qc.closes_at, qc.id`),
  ]);
  return {
    assignments: columns(ColumnRows.parse(assignmentRows).rows),
    quizzes: columns(ColumnRows.parse(quizRows).rows),
  };
}

/** Test cases of a skill: those of the assignments it is tagged on and those tagged one by one (once each). */
const skillTestCases = (courseId: number) => sql`
  select si.skill_id, tc.id as test_case_id, tc.assignment_id, tc.points
  from skill_items si join skills k on k.id = si.skill_id join test_cases tc on tc.assignment_id = si.assignment_id
  where k.course_id = ${courseId} and not tc.draft
  union
  select si.skill_id, tc.id, tc.assignment_id, tc.points
  from skill_items si join skills k on k.id = si.skill_id join test_cases tc on tc.id = si.test_case_id
  where k.course_id = ${courseId} and not tc.draft`;

/** The course's skills in order of type and name, with the points of their items per assignment and quiz. */
export async function loadSkills(db: Executor, courseId: number): Promise<SkillColumn[]> {
  const [skillRows, assignmentPoints, quizPoints, wholeRows] = await Promise.all([
    db
      .select({ id: skills.id, name: skills.name, skillType: skills.skillType })
      .from(skills)
      .where(eq(skills.courseId, courseId))
      .orderBy(asc(skills.skillType), asc(skills.name)),
    db.execute(sql`
      select st.skill_id as owner, st.assignment_id as item, sum(st.points)::float8 as points
      from (${skillTestCases(courseId)}) st
      join assignment_courses ac on ac.assignment_id = st.assignment_id and ac.course_id = ${courseId}
      group by 1, 2`),
    db.execute(sql`
      select si.skill_id as owner, qc.id as item, sum(qq.points)::float8 as points
      from skill_items si join skills k on k.id = si.skill_id
      join quiz_questions qq on qq.id = si.quiz_question_id
      join quiz_courses qc on qc.quiz_id = qq.quiz_id and qc.course_id = ${courseId}
      where k.course_id = ${courseId}
      group by 1, 2`),
    db
      .select({ skillId: skillItems.skillId, assignmentId: skillItems.assignmentId })
      .from(skillItems)
      .innerJoin(skills, eq(skills.id, skillItems.skillId))
      .where(and(eq(skills.courseId, courseId), sql`${skillItems.assignmentId} is not null`)),
  ]);
  const byId = new Map<number, SkillColumn>(
    skillRows.map((s) => [
      s.id,
      { ...s, assignmentPoints: new Map(), quizPoints: new Map(), wholeAssignments: new Set<number>() },
    ]),
  );
  for (const r of wholeRows)
    if (r.assignmentId !== null) byId.get(r.skillId)?.wholeAssignments.add(r.assignmentId);
  for (const r of PointRows.parse(assignmentPoints).rows)
    byId.get(r.owner)?.assignmentPoints.set(r.item, r.points);
  for (const r of PointRows.parse(quizPoints).rows) byId.get(r.owner)?.quizPoints.set(r.item, r.points);
  return [...byId.values()];
}

export async function loadStudents(db: Executor, courseId: number, userId?: number) {
  return db
    .select({ id: users.id, email: users.email, first_name: users.firstName, last_name: users.lastName })
    .from(courseStudents)
    .innerJoin(users, eq(users.id, courseStudents.userId))
    .where(
      and(eq(courseStudents.courseId, courseId), userId === undefined ? undefined : eq(users.id, userId)),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email), asc(users.id));
}

export interface ResultFilter {
  userId?: number;
  assignmentId?: number;
  skillId?: number;
}

/**
 * Each student's counted submission of each assignment: the final one, or else the best graded one, with
 * its released review's total (db/review-score.ts).
 * Rows of people who are not students of the course are left to the callers, which walk the students.
 */
const chosenSubmissions = (courseId: number, filter: ResultFilter) => sql`
  select distinct on (s.user_id, s.assignment_id) s.id, s.user_id, s.assignment_id, ${countedScore} as score
  from submissions s ${reviewJoins(true)}
  where s.course_id = ${courseId} and not s.is_reference and ${hasCountedScore}
    ${filter.userId === undefined ? sql`` : sql`and s.user_id = ${filter.userId}`}
    ${filter.assignmentId === undefined ? sql`` : sql`and s.assignment_id = ${filter.assignmentId}`}
  order by s.user_id, s.assignment_id, s.is_final desc, ${countedScore} desc nulls last, s.id desc`;

const KindRows = z.object({
  rows: z.array(z.object({ kind: z.enum(['a', 't']), owner: num, item: num, points: num })),
});

/**
 * The students' results: the points of each counted submission, of each submitted quiz, and of the skills'
 * single test cases and quiz questions. A skill's whole assignments earn the submission's points, which
 * `scoreStudent` adds (a submission's score is the sum of its evaluations), so the evaluations are read
 * only for test cases tagged one by one.
 */
export async function loadResults(
  db: Executor,
  courseId: number,
  filter: ResultFilter = {},
  parts: { quizzes: boolean; skills: boolean } = { quizzes: true, skills: true },
): Promise<Results> {
  const user = (column: SQL) => (filter.userId === undefined ? sql`` : sql`and ${column} = ${filter.userId}`);
  const skill = (column: SQL) =>
    filter.skillId === undefined ? sql`` : sql`and ${column} = ${filter.skillId}`;
  const [workRows, quizRows, quizSkillRows] = await Promise.all([
    db.execute(sql`
      with chosen as materialized (${chosenSubmissions(courseId, filter)})
      select 'a' as kind, c.user_id as owner, c.assignment_id as item, c.score::float8 as points from chosen c
      ${
        parts.skills
          ? sql`union all
      select 't', c.user_id, t.skill_id, sum(e.points)::float8
      from (
        select si.skill_id, tc.id as test_case_id
        from skill_items si join skills k on k.id = si.skill_id join test_cases tc on tc.id = si.test_case_id
        where k.course_id = ${courseId} ${skill(sql`si.skill_id`)}
          and not exists (select 1 from skill_items w where w.skill_id = si.skill_id and w.assignment_id = tc.assignment_id)
        offset 0
      ) t join evaluations e on e.test_case_id = t.test_case_id
      join chosen c on c.id = e.submission_id
      group by 2, 3`
          : sql``
      }`),
    parts.quizzes
      ? db.execute(sql`
      select qs.user_id as owner, qs.quiz_course_id as item, coalesce(qs.score, 0)::float8 as points
      from quiz_submissions qs join quiz_courses qc on qc.id = qs.quiz_course_id
      where qc.course_id = ${courseId} and qs.submitted_at is not null ${user(sql`qs.user_id`)}`)
      : { rows: [] },
    parts.skills
      ? db.execute(sql`
      select qs.user_id as owner, si.skill_id as item, sum(qa.points)::float8 as points
      from quiz_submissions qs
      join quiz_courses qc on qc.id = qs.quiz_course_id and qc.course_id = ${courseId}
        and qc.scores_visible_at <= now()
      join quiz_answers qa on qa.submission_id = qs.id
      join skill_items si on si.quiz_question_id = qa.question_id
      join skills k on k.id = si.skill_id and k.course_id = ${courseId}
      where qs.submitted_at is not null ${user(sql`qs.user_id`)} ${skill(sql`si.skill_id`)}
      group by 1, 2`)
      : { rows: [] },
  ]);
  const results: Results = { assignments: new Map(), quizzes: new Map(), skills: new Map() };
  // A skill may have test cases and quiz questions: its rows add up.
  const add = (map: Map<string, number>, owner: number, item: number, points: number) =>
    map.set(key(owner, item), (map.get(key(owner, item)) ?? 0) + points);
  for (const r of KindRows.parse(workRows).rows) {
    add(r.kind === 'a' ? results.assignments : results.skills, r.owner, r.item, r.points);
  }
  for (const r of PointRows.parse(quizRows).rows) add(results.quizzes, r.owner, r.item, r.points);
  for (const r of PointRows.parse(quizSkillRows).rows) add(results.skills, r.owner, r.item, r.points);
  return results;
}
