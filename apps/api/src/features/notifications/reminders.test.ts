import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStudent, createCourse, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { notificationsOf } from '../../../test/notifications.ts';
import { assignmentExtensions, quizExtensions } from '../../db/schema-extensions.ts';
import { hoursFromNow, insertAssignment, insertSubmission } from '../assignments/testing.ts';
import { insertAttempt, insertQuiz } from '../quizzes/testing.ts';
import { setLink } from '../submissions/testing.ts';
import { links } from './notify.service.ts';
import { REMINDERS_QUEUE, sendReminders, startReminderJobs, type RemindersRun } from './reminders.service.ts';

/*
 * Reminders (docs/notifications.md, "Reminders"): a deadline within 24 hours by each student's own date,
 * for what they have not handed in; a quiz that just opened. Every run covers every course, so each test
 * makes its own course and reads only its rows.
 */

let t: TestApp;
const runs: RemindersRun[] = [];
beforeAll(async () => {
  t = await createTestApp({ jobs: true });
  await startReminderJobs(t.ctx, { onRun: (run) => runs.push(run) });
});
afterAll(() => t.close());

const DAY = 24;

async function courseWithStudents(count: number) {
  const course = await createCourse(t);
  const students = await Promise.all(Array.from({ length: count }, () => createUser(t, { password: null })));
  for (const student of students) await addStudent(t, course.id, student.id);
  return { course, students };
}

const pairs = async (kind: 'deadline_soon' | 'quiz_opened', courseId: number) =>
  (await notificationsOf(t, kind, courseId)).map((n) => [n.user_id, n.link, n.facts.due_at]);
const sorted = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('a deadline within a day', () => {
  it("reminds each student who has not handed in, by the student's own date", async () => {
    const { course, students } = await courseWithStudents(5);
    const [plain, awayExtended, nearExtended, handedIn, inactive] = students as [
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
    ];
    await t.database.query('UPDATE users SET is_active = false WHERE id = $1', [inactive.id]);
    const soon = hoursFromNow(10);
    const a = await insertAssignment(t, {
      title: 'Due soon',
      courses: [{ courseId: course.id, dueAt: soon }],
    });
    const b = await insertAssignment(t, {
      title: 'Due in three days',
      courses: [{ courseId: course.id, dueAt: hoursFromNow(3 * DAY) }],
    });
    // Neither open yet nor already past: nothing.
    await insertAssignment(t, {
      courses: [{ courseId: course.id, opensAt: hoursFromNow(1), dueAt: hoursFromNow(5) }],
    });
    await insertAssignment(t, { courses: [{ courseId: course.id, dueAt: hoursFromNow(-1) }] });
    const nearDate = hoursFromNow(5);
    await t.ctx.db.insert(assignmentExtensions).values([
      // Extended to next week: no reminder today.
      {
        assignmentId: a.id,
        courseId: course.id,
        userId: awayExtended.id,
        dueAt: hoursFromNow(7 * DAY),
        reason: 'r',
      },
      // The three-day assignment, extended to within the day for this one student... (a shorter own date).
      { assignmentId: b.id, courseId: course.id, userId: nearExtended.id, dueAt: nearDate, reason: 'r' },
    ]);
    await insertSubmission(t, { assignmentId: a.id, courseId: course.id, userId: handedIn.id });

    await sendReminders(t.ctx);
    const told = await notificationsOf(t, 'deadline_soon', course.id);
    expect(sorted(told.map((n) => [n.user_id, n.link, n.facts]))).toEqual(
      sorted([
        [plain.id, links.assignment(course.id, a.id), { title: 'Due soon', due_at: soon.toISOString() }],
        [
          nearExtended.id,
          links.assignment(course.id, a.id),
          { title: 'Due soon', due_at: soon.toISOString() },
        ],
        [
          nearExtended.id,
          links.assignment(course.id, b.id),
          { title: 'Due in three days', due_at: nearDate.toISOString() },
        ],
      ]),
    );
    expect(told.find((n) => n.user_id === plain.id)?.event_key).toBe(
      `deadline:assignment:${a.id}:${course.id}:${soon.toISOString()}`,
    );

    // Again: nothing new. The deadline moved: a new reminder for those still to hand in.
    await sendReminders(t.ctx);
    expect(await notificationsOf(t, 'deadline_soon', course.id)).toHaveLength(3);
    const moved = hoursFromNow(20);
    await setLink(t, a.id, course.id, { dueAt: moved });
    await sendReminders(t.ctx);
    const after = await pairs('deadline_soon', course.id);
    expect(sorted(after.slice(3))).toEqual(
      sorted([
        [plain.id, links.assignment(course.id, a.id), moved.toISOString()],
        [nearExtended.id, links.assignment(course.id, a.id), moved.toISOString()],
      ]),
    );
  });

  it('reminds of a quiz closing within the day unless the attempt was submitted', async () => {
    const { course, students } = await courseWithStudents(4);
    const [idle, started, submitted, extended] = students as [
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
    ];
    const closes = hoursFromNow(6);
    const { quiz, quizCourseOf } = await insertQuiz(t, {
      title: 'Quiz 4',
      courses: [{ courseId: course.id, opensAt: hoursFromNow(-48), closesAt: closes }],
    });
    const quizCourse = quizCourseOf(course.id);
    await insertAttempt(t, { quizCourseId: quizCourse.id, userId: started.id });
    await insertAttempt(t, { quizCourseId: quizCourse.id, userId: submitted.id, submittedAt: new Date() });
    await t.ctx.db.insert(quizExtensions).values({
      quizCourseId: quizCourse.id,
      userId: extended.id,
      closesAt: hoursFromNow(3 * DAY),
      reason: 'r',
    });
    await sendReminders(t.ctx);
    const link = links.quiz(course.id, quiz.id, quizCourse.id);
    expect(sorted(await pairs('deadline_soon', course.id))).toEqual(
      sorted([
        [idle.id, link, closes.toISOString()],
        [started.id, link, closes.toISOString()],
      ]),
    );
    expect((await notificationsOf(t, 'deadline_soon', course.id))[0]!.event_key).toBe(
      `deadline:quiz:${quizCourse.id}:${closes.toISOString()}`,
    );
  });

  it('makes each reminder once when two instances run at the same moment, and none on a second run', async () => {
    const { course, students } = await courseWithStudents(30);
    const a = await insertAssignment(t, { courses: [{ courseId: course.id, dueAt: hoursFromNow(3) }] });
    const { quizCourseOf } = await insertQuiz(t, {
      courses: [{ courseId: course.id, opensAt: hoursFromNow(-1), closesAt: hoursFromNow(4) }],
    });
    const other = await createTestApp({ sameDatabaseAs: t });
    try {
      await Promise.all([sendReminders(t.ctx), sendReminders(other.ctx), sendReminders(t.ctx)]);
    } finally {
      await other.close();
    }
    const deadlines = await notificationsOf(t, 'deadline_soon', course.id);
    const opened = await notificationsOf(t, 'quiz_opened', course.id);
    expect(deadlines).toHaveLength(60);
    expect(new Set(deadlines.map((n) => `${n.user_id} ${n.event_key}`)).size).toBe(60);
    expect(opened.map((n) => n.user_id).sort()).toEqual(students.map((s) => s.id).sort());
    expect(deadlines.filter((n) => n.link === links.assignment(course.id, a.id))).toHaveLength(30);
    expect(opened.every((n) => n.event_key.startsWith(`quiz_opened:${quizCourseOf(course.id).id}:`))).toBe(
      true,
    );

    await sendReminders(t.ctx);
    expect(await notificationsOf(t, 'deadline_soon', course.id)).toHaveLength(60);
    expect(await notificationsOf(t, 'quiz_opened', course.id)).toHaveLength(30);
  });

  it('runs as a pg-boss job', async () => {
    const { course } = await courseWithStudents(1);
    await insertAssignment(t, { courses: [{ courseId: course.id, dueAt: hoursFromNow(2) }] });
    const before = runs.length;
    await t.ctx.jobs.send(REMINDERS_QUEUE, {});
    const deadline = Date.now() + 15_000;
    while (runs.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(runs.length).toBeGreaterThan(before);
    expect(await notificationsOf(t, 'deadline_soon', course.id)).toHaveLength(1);
  });
});

describe('a quiz that opened', () => {
  it("tells the course's students once, with their own closing time; not of old, future or closed ones", async () => {
    const { course, students } = await courseWithStudents(2);
    const [plain, extended] = students as [(typeof students)[0], (typeof students)[0]];
    const opensAt = hoursFromNow(-2);
    const closes = hoursFromNow(5 * DAY);
    const { quiz, quizCourseOf } = await insertQuiz(t, {
      title: 'Quiz 5',
      courses: [{ courseId: course.id, opensAt, closesAt: closes }],
    });
    const quizCourse = quizCourseOf(course.id);
    const ownCloses = hoursFromNow(6 * DAY);
    await t.ctx.db
      .insert(quizExtensions)
      .values({ quizCourseId: quizCourse.id, userId: extended.id, closesAt: ownCloses, reason: 'r' });
    // Opened three days ago, opens tomorrow, opened and closed within the day: none of these.
    await insertQuiz(t, { courses: [{ courseId: course.id, opensAt: hoursFromNow(-3 * DAY) }] });
    await insertQuiz(t, {
      courses: [{ courseId: course.id, opensAt: hoursFromNow(DAY), closesAt: hoursFromNow(2 * DAY) }],
    });
    await insertQuiz(t, {
      courses: [{ courseId: course.id, opensAt: hoursFromNow(-3), closesAt: hoursFromNow(-1) }],
    });

    await sendReminders(t.ctx);
    await sendReminders(t.ctx);
    const link = links.quiz(course.id, quiz.id, quizCourse.id);
    const told = await notificationsOf(t, 'quiz_opened', course.id);
    expect(sorted(told.map((n) => [n.user_id, n.link, n.facts]))).toEqual(
      sorted([
        [plain.id, link, { title: 'Quiz 5', due_at: closes.toISOString() }],
        [extended.id, link, { title: 'Quiz 5', due_at: ownCloses.toISOString() }],
      ]),
    );
    expect(told[0]!.event_key).toBe(`quiz_opened:${quizCourse.id}:${opensAt.toISOString()}`);
  });
});
