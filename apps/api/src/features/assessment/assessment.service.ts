import type {
  AssessmentExistence,
  AssessmentTable,
  CourseRole,
  Histogram,
  StudentAnalysis,
  UserSummary,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { histogram, scoreStudent, type WorkColumn } from './analysis.ts';
import * as repo from './assessment.repo.ts';

/*
 * Assessment analysis of a course (docs/assessment.md): members ask whether it exists; editors of the
 * course and staff read the whole table; a student reads only their own analysis (another's is 404).
 * Everything is computed from the grades at the moment of the request, so new grades show at once.
 */

/** The caller's role in a course with analysis switched on; 404 for non-members and when it is off. */
async function analysedCourse(db: Executor, actor: Actor, courseId: number): Promise<CourseRole> {
  const role = await getCourseRole(db, actor, courseId);
  const course = await repo.findCourse(db, courseId);
  if (!course?.hasAssessment) throw notFound('Assessment analysis is not enabled for this course.');
  return role;
}

/** The student whose analysis is asked for: themself, or a student of the course for its editors. */
async function studentOf(db: Executor, actor: Actor, courseId: number, userId: number): Promise<UserSummary> {
  const role = await analysedCourse(db, actor, courseId);
  if (!canManageCourse(role) && userId !== actor.userId) throw notFound();
  const [student] = await repo.loadStudents(db, courseId, userId);
  if (!student) throw notFound();
  return student;
}

export async function existence(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<AssessmentExistence> {
  await getCourseRole(ctx.db, actor, courseId);
  const course = await repo.findCourse(ctx.db, courseId);
  return { data: Boolean(course?.hasAssessment) && (await repo.hasTaggedSkill(ctx.db, courseId)) };
}

const column = (c: WorkColumn) => ({
  id: c.id,
  title: c.title,
  due_at: new Date(c.dueAt).toISOString(),
  max_score: c.maxScore,
});

export async function courseTable(ctx: AppContext, actor: Actor, courseId: number): Promise<AssessmentTable> {
  const role = await analysedCourse(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff see the whole class.');
  const [work, skills, students, results] = await Promise.all([
    repo.loadWork(ctx.db, courseId),
    repo.loadSkills(ctx.db, courseId),
    repo.loadStudents(ctx.db, courseId),
    repo.loadResults(ctx.db, courseId),
  ]);
  const now = Date.now();
  return {
    course: courseId,
    skills: skills.map((s) => ({ name: s.name, skill_type: s.skillType })),
    assignments: work.assignments.map(column),
    quizzes: work.quizzes.map(column),
    students: students.map((user) => ({ user, ...scoreStudent(user.id, { ...work, skills }, results, now) })),
  };
}

export async function studentAnalysis(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  userId: number,
  skillType: string | undefined,
): Promise<StudentAnalysis> {
  const user = await studentOf(ctx.db, actor, courseId, userId);
  const [work, skills, results] = await Promise.all([
    repo.loadWork(ctx.db, courseId),
    repo.loadSkills(ctx.db, courseId),
    repo.loadResults(ctx.db, courseId, { userId }),
  ]);
  const scores = scoreStudent(userId, { ...work, skills }, results, Date.now());
  return {
    course: courseId,
    user,
    skill_types: [...new Set(skills.map((s) => s.skillType))],
    total: scores.total,
    skills: skills
      .map((s, i) => ({ name: s.name, skill_type: s.skillType, score: scores.skills[i]! }))
      .filter((s) => skillType === undefined || s.skill_type === skillType),
    assignments: work.assignments.map((c, i) => ({ ...column(c), score: scores.assignments[i]! })),
    quizzes: work.quizzes.map((c, i) => ({ ...column(c), score: scores.quizzes[i]! })),
  };
}

export async function assignmentHistogram(
  ctx: AppContext,
  actor: Actor,
  params: { course_id: number; user_id: number; assignment_id: number },
): Promise<Histogram> {
  await studentOf(ctx.db, actor, params.course_id, params.user_id);
  const work = await repo.loadWork(ctx.db, params.course_id);
  const assignment = work.assignments.find((a) => a.id === params.assignment_id);
  if (!assignment) throw notFound();
  const [students, results] = await Promise.all([
    repo.loadStudents(ctx.db, params.course_id),
    repo.loadResults(
      ctx.db,
      params.course_id,
      { assignmentId: assignment.id },
      { quizzes: false, skills: false },
    ),
  ]);
  const columns = { assignments: [assignment], quizzes: [], skills: [] };
  const now = Date.now();
  let mine: number | null = null;
  const ratios: number[] = [];
  for (const student of students) {
    const got = scoreStudent(student.id, columns, results, now).assignments[0];
    if (got === null || got === undefined || assignment.maxScore === 0) continue;
    ratios.push(got / assignment.maxScore);
    if (student.id === params.user_id) mine = got / assignment.maxScore;
  }
  return histogram(ratios, mine);
}

export async function skillHistogram(
  ctx: AppContext,
  actor: Actor,
  params: { course_id: number; user_id: number; skill_name: string },
): Promise<Histogram> {
  await studentOf(ctx.db, actor, params.course_id, params.user_id);
  const [work, skills] = await Promise.all([
    repo.loadWork(ctx.db, params.course_id),
    repo.loadSkills(ctx.db, params.course_id),
  ]);
  const skill = skills.find((s) => s.name === params.skill_name);
  if (!skill) throw notFound();
  const [students, results] = await Promise.all([
    repo.loadStudents(ctx.db, params.course_id),
    repo.loadResults(ctx.db, params.course_id, { skillId: skill.id }),
  ]);
  const now = Date.now();
  let mine: number | null = null;
  const ratios: number[] = [];
  for (const student of students) {
    const { ratio } = scoreStudent(student.id, { ...work, skills: [skill] }, results, now).skills[0]!;
    if (ratio === null) continue;
    ratios.push(ratio);
    if (student.id === params.user_id) mine = ratio;
  }
  return histogram(ratios, mine);
}
