import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { events } from '../../db/schema-calendar.ts';
import { quizCourses, quizzes } from '../../db/schema-quizzes.ts';

/** Test data for the calendar, written straight to the database (the routes are what the tests test). */

const HOUR = 3600_000;
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR);

export async function insertEvent(
  t: TestApp,
  fields: Pick<typeof events.$inferInsert, 'courseId'> & Partial<typeof events.$inferInsert>,
) {
  const [row] = await t.ctx.db
    .insert(events)
    .values({
      title: `Event ${randomBytes(3).toString('hex')}`,
      kind: 'lecture',
      startsAt: hoursFromNow(24),
      endsAt: hoursFromNow(25.5),
      ...fields,
    })
    .returning();
  return row!;
}

/** A quiz given to one course with the given window (the quiz feature owns these tables; we only read). */
export async function insertQuizWindow(
  t: TestApp,
  fields: {
    courseId: number;
    title?: string;
    opensAt?: Date;
    closesAt?: Date;
    timeLimitMinutes?: number | null;
  },
) {
  const [quiz] = await t.ctx.db
    .insert(quizzes)
    .values({ title: fields.title ?? `Quiz ${randomBytes(3).toString('hex')}` })
    .returning();
  const [quizCourse] = await t.ctx.db
    .insert(quizCourses)
    .values({
      quizId: quiz!.id,
      courseId: fields.courseId,
      opensAt: fields.opensAt ?? hoursFromNow(48),
      closesAt: fields.closesAt ?? hoursFromNow(72),
      timeLimitMinutes: fields.timeLimitMinutes ?? null,
    })
    .returning();
  return { quiz: quiz!, quizCourse: quizCourse! };
}

/**
 * The callers of the calendar's authorization matrix around `course` (with one event): anonymous, a
 * student of the course, a student of another course (an outsider), an editor of the course, an editor
 * of another course, staff.
 */
export async function createCalendarWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const otherStudent = await createUser(t);
  await addStudent(t, world.otherCourse.id, otherStudent.id);
  const event = await insertEvent(t, { courseId: world.course.id, createdBy: world.users.editor.id });
  return {
    ...world,
    users: { ...world.users, otherStudent },
    tokens: { ...world.tokens, otherStudent: await tokenFor(t, otherStudent) },
    event,
  };
}
