import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { submissions } from '../../db/schema-assignments.ts';
import {
  reviewComments,
  reviewItems,
  reviews,
  reviewSettings,
  rubricItems,
  savedComments,
} from '../../db/schema-review.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The rubric: two groups, one deduction; with rubric_max 2 the warm-up counts out of 12. */
const RUBRIC = [
  {
    groupTitle: 'Output',
    title: 'One decimal, as asked',
    description: 'Formats the result with `:.1f`. 小数第 1 位まで出力している。',
    points: 1,
  },
  {
    groupTitle: 'Output',
    title: 'Reads decimals',
    description: 'Reads the input with `float()`, so `36.6` works. `float()` で小数も読める。',
    points: 1,
  },
  {
    groupTitle: 'Style',
    title: 'Clear names',
    description: 'Names say what they hold. 変数名が内容を表している。',
    points: 1,
  },
  {
    groupTitle: 'Style',
    title: 'Leftover debugging code',
    description: 'Commented-out or unused lines left in. 不要なコードが残っている。',
    points: -1,
  },
];

/**
 * Demo content of the teacher's review (docs/review.md), on the first assignment of the demo course with
 * graded submissions (the assessment demo's warm-up, so this step runs after it): a rubric, a saved
 * comment, the first student's grading released yesterday with a comment on a line (their home shows it
 * as new feedback), and the second student's graded after that and not released yet, so the grading
 * queue shows every state at once (the third student's is not graded).
 */
export async function seedDemoReview(tx: Tx, world: DemoWorld): Promise<void> {
  const now = Date.now();
  const handedIn = await tx
    .select({ id: submissions.id, assignmentId: submissions.assignmentId, userId: submissions.userId })
    .from(submissions)
    .where(
      and(
        eq(submissions.courseId, world.course.id),
        eq(submissions.status, 'Completed'),
        eq(submissions.isReference, false),
      ),
    )
    .orderBy(asc(submissions.id));
  const assignmentId = handedIn[0]?.assignmentId;
  if (assignmentId === undefined) return;
  const submissionOf = (userId: number | undefined) =>
    handedIn.find((s) => s.assignmentId === assignmentId && s.userId === userId);

  await tx.insert(reviewSettings).values({ assignmentId, autogradeWeight: 1, rubricWeight: 1, rubricMax: 2 });
  const items = await tx
    .insert(rubricItems)
    .values(RUBRIC.map((item, position) => ({ ...item, assignmentId, position })))
    .returning({ id: rubricItems.id, points: rubricItems.points });
  const [format, decimals, names] = items;
  if (!format || !decimals || !names) return;

  await tx.insert(savedComments).values({
    courseId: world.course.id,
    title: 'Read decimals with float()',
    body:
      '`int(input())` stops at `36.6`: read the temperature with `float(input())`.\n\n' +
      '`36.6` のような小数は `int()` では読めません。`float(input())` を使いましょう。',
    rubricItemId: decimals.id,
    uses: 1,
    createdBy: world.editor.id,
  });

  const grade = async (
    submission: { id: number; userId: number },
    ticked: { id: number; points: number }[],
    fields: { comment: string; gradedAt: Date; releasedAt: Date | null },
    line: { line: number; body: string; rubricItemId: number | null },
  ) => {
    const [review] = await tx
      .insert(reviews)
      .values({
        submissionId: submission.id,
        assignmentId,
        courseId: world.course.id,
        userId: submission.userId,
        status: 'graded',
        rubricPoints: ticked.reduce((sum, item) => sum + item.points, 0),
        comment: fields.comment,
        graderId: world.editor.id,
        gradedAt: fields.gradedAt,
        releasedAt: fields.releasedAt,
        releasedBy: fields.releasedAt === null ? null : world.editor.id,
        version: 2,
      })
      .returning({ id: reviews.id });
    await tx
      .insert(reviewItems)
      .values(ticked.map((item) => ({ reviewId: review!.id, rubricItemId: item.id })));
    await tx.insert(reviewComments).values({
      reviewId: review!.id,
      authorId: world.editor.id,
      filename: 'main.py',
      lineStart: line.line,
      lineEnd: line.line,
      body: line.body,
      rubricItemId: line.rubricItemId,
      createdAt: fields.gradedAt,
      updatedAt: fields.gradedAt,
    });
  };

  const [first, second] = world.students;
  const released = submissionOf(first?.id);
  if (released) {
    // 10 of 10 from the autograder, +2 from the rubric: 12 of 12.
    await grade(
      released,
      [format, names],
      {
        comment: 'Correct and easy to read. 正確で読みやすい解答です。',
        gradedAt: new Date(now - 2 * DAY),
        releasedAt: new Date(now - DAY),
      },
      {
        line: 2,
        body: 'The f-string gives exactly one decimal. f 文字列で小数第 1 位までそろっています。',
        rubricItemId: format.id,
      },
    );
  }
  const unreleased = submissionOf(second?.id);
  if (unreleased) {
    // 5 of 10 from the autograder, +1: 6 of 12, graded after the release and waiting for the next one.
    await grade(
      unreleased,
      [names],
      {
        comment: 'Close: read decimals and format the output. あと一歩です。',
        gradedAt: new Date(now - 2 * HOUR),
        releasedAt: null,
      },
      {
        line: 1,
        body: '`int(input())` stops at `36.6`: read the temperature with `float(input())`.',
        rubricItemId: decimals.id,
      },
    );
  }
}
