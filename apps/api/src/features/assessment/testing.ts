import type { TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import {
  assignmentCourses,
  assignments,
  evaluations,
  submissions,
  testCases,
} from '../../db/schema-assignments.ts';
import {
  quizAnswers,
  quizCourses,
  quizQuestions,
  quizSubmissions,
  quizzes,
} from '../../db/schema-quizzes.ts';
import {
  assessmentFeedback,
  skillItems,
  skills,
  workshopParticipants,
  workshops,
} from '../../db/schema-assessment.ts';

/** Test data for assessment analysis, written straight to the database (the routes are what the tests test). */

const DAY = 86_400_000;
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY);

export async function insertAssignment(t: TestApp, courseId: number, dueInDays: number, points: number[]) {
  const [assignment] = await t.ctx.db
    .insert(assignments)
    .values({ title: `Assignment due ${dueInDays}` })
    .returning();
  await t.ctx.db.insert(assignmentCourses).values({
    assignmentId: assignment!.id,
    courseId,
    opensAt: daysFromNow(-30),
    dueAt: daysFromNow(dueInDays),
  });
  const cases = await t.ctx.db
    .insert(testCases)
    .values(
      points.map((p, i) => ({
        assignmentId: assignment!.id,
        position: i,
        name: `t${i + 1}`,
        kind: 'io' as const,
        points: p,
      })),
    )
    .returning();
  return { ...assignment!, testCases: cases };
}

/** A graded submission earning `earned[i]` points on the assignment's i-th test case. */
export async function insertGraded(
  t: TestApp,
  a: { id: number; testCases: { id: number; points: number }[] },
  courseId: number,
  userId: number,
  earned: number[],
  isFinal = false,
) {
  const score = earned.reduce((x, y) => x + y, 0);
  const [submission] = await t.ctx.db
    .insert(submissions)
    .values({
      assignmentId: a.id,
      courseId,
      userId,
      status: 'Completed',
      score,
      maxScore: a.testCases.reduce((x, c) => x + c.points, 0),
      isFinal,
      gradedAt: new Date(),
    })
    .returning();
  await t.ctx.db.insert(evaluations).values(
    a.testCases.map((c, i) => ({
      submissionId: submission!.id,
      testCaseId: c.id,
      status: (earned[i] ?? 0) === c.points ? ('Correct' as const) : ('Wrong' as const),
      points: earned[i] ?? 0,
    })),
  );
  return submission!;
}

export async function insertQuiz(
  t: TestApp,
  courseId: number,
  fields: { closesInDays: number; scoresVisible: boolean; points: number[] },
) {
  const [quiz] = await t.ctx.db
    .insert(quizzes)
    .values({ title: `Quiz closing ${fields.closesInDays}` })
    .returning();
  const questions = await t.ctx.db
    .insert(quizQuestions)
    .values(
      fields.points.map((p, i) => ({
        quizId: quiz!.id,
        position: i,
        kind: 'true_false' as const,
        prompt: `Question ${i + 1}`,
        points: p,
        answerKey: true,
      })),
    )
    .returning();
  const [quizCourse] = await t.ctx.db
    .insert(quizCourses)
    .values({
      quizId: quiz!.id,
      courseId,
      opensAt: daysFromNow(-30),
      closesAt: daysFromNow(fields.closesInDays),
      scoresVisibleAt: fields.scoresVisible ? daysFromNow(-1) : null,
    })
    .returning();
  return { quiz: quiz!, quizCourse: quizCourse!, questions };
}

/** A submitted quiz earning `earned[i]` points on its i-th question. */
export async function insertQuizSubmission(
  t: TestApp,
  q: Awaited<ReturnType<typeof insertQuiz>>,
  userId: number,
  earned: number[],
) {
  const [submission] = await t.ctx.db
    .insert(quizSubmissions)
    .values({
      quizCourseId: q.quizCourse.id,
      userId,
      submittedAt: new Date(),
      score: earned.reduce((x, y) => x + y, 0),
      maxScore: q.questions.reduce((x, c) => x + c.points, 0),
    })
    .returning();
  await t.ctx.db.insert(quizAnswers).values(
    q.questions.map((question, i) => ({
      submissionId: submission!.id,
      questionId: question.id,
      answer: true,
      isCorrect: (earned[i] ?? 0) > 0,
      points: earned[i] ?? 0,
    })),
  );
}

export async function insertSkill(
  t: TestApp,
  courseId: number,
  name: string,
  skillType: string,
  items: { assignments?: number[]; testCases?: number[]; quizQuestions?: number[] },
) {
  const [skill] = await t.ctx.db.insert(skills).values({ courseId, name, skillType }).returning();
  const rows = [
    ...(items.assignments ?? []).map((assignmentId) => ({ skillId: skill!.id, assignmentId })),
    ...(items.testCases ?? []).map((testCaseId) => ({ skillId: skill!.id, testCaseId })),
    ...(items.quizQuestions ?? []).map((quizQuestionId) => ({ skillId: skill!.id, quizQuestionId })),
  ];
  if (rows.length > 0) await t.ctx.db.insert(skillItems).values(rows);
  return skill!;
}

/**
 * A course with assessment on and known results (docs/assessment.md works this example through):
 * - A1 (due yesterday; test cases 2 + 3 points), A2 (due next week; 5), a quiz Q (closed, scores
 *   visible; 1 + 1) and a quiz H whose scores are not visible yet (1).
 * - Skills: Loops (programming) on A1; Functions (programming) on A2's test case and Q's second
 *   question; Reading (theory) on Q's first question and H's.
 * - s1: A1 best 5 but final 2; A2 5 before the due date; Q 1 + 0; H 1. s2: A1 2 then 3, none final; Q
 *   not taken. s3: nothing.
 */
export async function createAssessmentWorld(t: TestApp) {
  const course = await createCourse(t, { title: 'Analysed', hasAssessment: true });
  const otherCourse = await createCourse(t, { title: 'Elsewhere', hasAssessment: true });
  const staff = await createUser(t, { isStaff: true });
  const editor = await createUser(t);
  const otherEditor = await createUser(t);
  const [s1, s2, s3] = [await createUser(t), await createUser(t), await createUser(t)];
  await addEditor(t, course.id, editor.id);
  await addEditor(t, otherCourse.id, otherEditor.id);
  for (const s of [s1!, s2!, s3!]) await addStudent(t, course.id, s.id);

  const a1 = await insertAssignment(t, course.id, -1, [2, 3]);
  const a2 = await insertAssignment(t, course.id, 7, [5]);
  const q = await insertQuiz(t, course.id, { closesInDays: -1, scoresVisible: true, points: [1, 1] });
  const hidden = await insertQuiz(t, course.id, { closesInDays: -1, scoresVisible: false, points: [1] });
  await insertGraded(t, a1, course.id, s1!.id, [2, 3]);
  await insertGraded(t, a1, course.id, s1!.id, [2, 0], true);
  await insertGraded(t, a2, course.id, s1!.id, [5]);
  await insertQuizSubmission(t, q, s1!.id, [1, 0]);
  await insertQuizSubmission(t, hidden, s1!.id, [1]);
  await insertGraded(t, a1, course.id, s2!.id, [2, 0]);
  await insertGraded(t, a1, course.id, s2!.id, [0, 3]);

  const loops = await insertSkill(t, course.id, 'Loops', 'programming', { assignments: [a1.id] });
  const functions = await insertSkill(t, course.id, 'Functions', 'programming', {
    testCases: [a2.testCases[0]!.id],
    quizQuestions: [q.questions[1]!.id],
  });
  const reading = await insertSkill(t, course.id, 'Reading', 'theory', {
    quizQuestions: [q.questions[0]!.id, hidden.questions[0]!.id],
  });
  const [feedback] = await t.ctx.db
    .insert(assessmentFeedback)
    .values({
      courseId: course.id,
      userId: s1!.id,
      skillId: loops.id,
      authorId: editor.id,
      body: 'Mind the loop bounds.',
    })
    .returning();
  const [workshop] = await t.ctx.db
    .insert(workshops)
    .values({
      courseId: course.id,
      skillId: loops.id,
      title: 'Loops clinic',
      startsAt: daysFromNow(2),
      endsAt: new Date(daysFromNow(2).getTime() + 3_600_000),
      createdBy: editor.id,
    })
    .returning();
  await t.ctx.db.insert(workshopParticipants).values([
    { workshopId: workshop!.id, userId: s1!.id },
    { workshopId: workshop!.id, userId: s2!.id, status: 'attended' },
  ]);
  return {
    course,
    otherCourse,
    feedback: feedback!,
    workshop: workshop!,
    work: { a1, a2, q, hidden },
    skills: { loops, functions, reading },
    users: { staff, editor, otherEditor, s1: s1!, s2: s2!, s3: s3! },
    tokens: {
      anonymous: undefined,
      student: await tokenFor(t, s1!),
      s2: await tokenFor(t, s2!),
      editor: await tokenFor(t, editor),
      otherEditor: await tokenFor(t, otherEditor),
      staff: await tokenFor(t, staff),
    },
  };
}
