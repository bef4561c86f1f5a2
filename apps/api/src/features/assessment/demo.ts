import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { assignmentCourses, evaluations, submissionFiles, submissions } from '../../db/schema-assignments.ts';
import { quizCourses, quizQuestions } from '../../db/schema-quizzes.ts';
import {
  assessmentFeedback,
  skillItems,
  skills,
  workshopParticipants,
  workshops,
} from '../../db/schema-assessment.ts';
import { insertAssignment, replaceLinks } from '../assignments/assignments.service.ts';
import { insertTestCase } from '../assignments/test-cases.service.ts';

const DAY = 86_400_000;

const WARM_UP_SOLUTION = 'c = float(input())\nprint(f"{c * 9 / 5 + 32:.1f}")\n';
/** The warm-up's three tests (2, 3 and 5 points) and what each demo student's final submission earned. */
const WARM_UP_TESTS = [
  { name: 'Freezing point', stdin: '0\n', expectedStdout: '32.0\n', points: 2 },
  { name: 'Body temperature', stdin: '37\n', expectedStdout: '98.6\n', points: 3 },
  { name: 'Below zero', stdin: '-40\n', expectedStdout: '-40.0\n', points: 5 },
];
const WARM_UP_RESULTS = [
  [2, 3, 5],
  [2, 3, 0],
  [2, 0, 0],
];

/**
 * Demo content of the seed: a warm-up assignment that was due last week with graded final submissions
 * of the three demo students, four skills tagged on it, on the open assignments and on the closed
 * quiz's questions, a note of feedback and a workshop, so the assessment pages show every part.
 */
export async function seedDemoAssessment(tx: Tx, world: DemoWorld): Promise<void> {
  const now = Date.now();
  const warmUp = await insertAssignment(tx, {
    title: 'Warm-up: Celsius to Fahrenheit',
    statement:
      '# Celsius to Fahrenheit\n\nRead a temperature in °C and print it in °F with one decimal.\n\n' +
      '摂氏の温度を読み、華氏に変換して小数第 1 位まで出力してください。\n',
    starterCode: 'c = float(input())\n',
    referenceSolution: WARM_UP_SOLUTION,
    createdBy: world.editor.id,
  });
  await replaceLinks(tx, warmUp.id, [
    {
      courseId: world.course.id,
      opensAt: new Date(now - 14 * DAY),
      dueAt: new Date(now - 7 * DAY),
      lateUntil: null,
      leaderboardEnabled: true,
    },
  ]);
  const cases = [];
  for (const [position, test] of WARM_UP_TESTS.entries()) {
    cases.push(await insertTestCase(tx, warmUp.id, { ...test, kind: 'io', visibility: 'visible', position }));
  }
  for (const [i, earned] of WARM_UP_RESULTS.entries()) {
    const student = world.students[i];
    if (!student) continue;
    const gradedAt = new Date(now - (8 + i) * DAY);
    const [submission] = await tx
      .insert(submissions)
      .values({
        assignmentId: warmUp.id,
        courseId: world.course.id,
        userId: student.id,
        status: 'Completed',
        score: earned.reduce((a, b) => a + b, 0),
        maxScore: 10,
        isFinal: true,
        queuedAt: gradedAt,
        startedAt: gradedAt,
        gradedAt,
        createdAt: gradedAt,
      })
      .returning();
    const code = Buffer.from(i === 0 ? WARM_UP_SOLUTION : 'c = int(input())\nprint(c * 9 / 5 + 32)\n');
    await tx
      .insert(submissionFiles)
      .values({ submissionId: submission!.id, filename: 'main.py', content: code, size: code.length });
    await tx.insert(evaluations).values(
      cases.map((c, n) => ({
        submissionId: submission!.id,
        testCaseId: c.id,
        status: earned[n] === c.points ? ('Correct' as const) : ('Wrong' as const),
        points: earned[n]!,
        reason: earned[n] === c.points ? null : 'wrong_answer',
      })),
    );
  }

  const open = await tx
    .select({ id: assignmentCourses.assignmentId })
    .from(assignmentCourses)
    .where(eq(assignmentCourses.courseId, world.course.id))
    .orderBy(asc(assignmentCourses.dueAt));
  const questions = await tx
    .select({ id: quizQuestions.id, closesAt: quizCourses.closesAt })
    .from(quizQuestions)
    .innerJoin(quizCourses, eq(quizCourses.quizId, quizQuestions.quizId))
    .where(eq(quizCourses.courseId, world.course.id))
    .orderBy(asc(quizCourses.closesAt), asc(quizQuestions.position));
  const closedQuestions = questions.filter((q) => q.closesAt.getTime() < now).map((q) => q.id);
  const later = open.map((a) => a.id).filter((id) => id !== warmUp.id);

  type Item = Omit<typeof skillItems.$inferInsert, 'skillId'>;
  const add = async (name: string, skillType: string, items: Item[]) => {
    const [skill] = await tx
      .insert(skills)
      .values({ courseId: world.course.id, name, skillType })
      .returning();
    const rows = items.map((item) => ({ ...item, skillId: skill!.id }));
    if (rows.length > 0) await tx.insert(skillItems).values(rows);
    return skill!;
  };
  await add('Input and output', 'programming', [
    { testCaseId: cases[0]!.id },
    ...later.map((assignmentId) => ({ assignmentId })),
  ]);
  const arithmetic = await add('Arithmetic', 'programming', [{ assignmentId: warmUp.id }]);
  await add(
    'Types and values',
    'concepts',
    closedQuestions.slice(0, 2).map((quizQuestionId) => ({ quizQuestionId })),
  );
  await add(
    'Reading code',
    'concepts',
    closedQuestions.slice(2).map((quizQuestionId) => ({ quizQuestionId })),
  );

  const [, second, third] = world.students;
  if (third) {
    await tx.insert(assessmentFeedback).values({
      courseId: world.course.id,
      userId: third.id,
      skillId: arithmetic.id,
      authorId: world.editor.id,
      body:
        'Watch the types: `int(input())` fails on `36.6`, and °F needs one decimal (`:.1f`).\n\n' +
        '型に注意しましょう。小数点以下 1 桁の書式指定（`:.1f`）も確認してください。',
    });
  }
  const [workshop] = await tx
    .insert(workshops)
    .values({
      courseId: world.course.id,
      skillId: arithmetic.id,
      title: 'Arithmetic and formatting clinic',
      description: 'Bring your warm-up solution. ウォームアップの解答を持ってきてください。',
      location: 'Room 204',
      startsAt: new Date(now + 3 * DAY),
      endsAt: new Date(now + 3 * DAY + 90 * 60_000),
      createdBy: world.editor.id,
    })
    .returning();
  const invited = [second, third].filter((s) => s !== undefined);
  if (invited.length > 0) {
    await tx
      .insert(workshopParticipants)
      .values(invited.map((s) => ({ workshopId: workshop!.id, userId: s.id, status: 'invited' as const })));
  }
}
