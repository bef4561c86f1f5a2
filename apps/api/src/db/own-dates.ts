import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Placeholder } from 'drizzle-orm';
import { assignmentCourses } from './schema-assignments.ts';
import { assignmentExtensions, quizExtensions } from './schema-extensions.ts';
import { quizCourses } from './schema-quizzes.ts';

/*
 * A student's own dates (docs/extensions.md): a query that reads an assignment's or a quiz's dates for
 * one person left-joins that person's extension and reads the columns below instead of the course's.
 * Everything downstream — what is accepted, what is late, after_due tests, lists, calendar, feed —
 * then follows the student's dates without knowing extensions exist.
 */

type Person = AnyColumn | Placeholder | SQL | number;

export const ownAssignmentExtension = alias(assignmentExtensions, 'own_assignment_extension');

/** The join condition of `person`'s extension for the outer query's `assignment_courses` row. */
export const ownAssignmentExtensionOn = (person: Person) =>
  and(
    eq(ownAssignmentExtension.assignmentId, assignmentCourses.assignmentId),
    eq(ownAssignmentExtension.courseId, assignmentCourses.courseId),
    eq(ownAssignmentExtension.userId, person),
  );

const ownAssignment = ownAssignmentExtension;

/** Columns: the person's due date and late cut-off, and whether they come from an extension. */
export const ownAssignmentDates = {
  dueAt: sql<Date>`coalesce(${ownAssignment.dueAt}, ${assignmentCourses.dueAt})`.mapWith(
    assignmentCourses.dueAt,
  ),
  lateUntil:
    sql<Date | null>`(case when ${ownAssignment.userId} is null then ${assignmentCourses.lateUntil} else ${ownAssignment.lateUntil} end)`.mapWith(
      assignmentCourses.dueAt,
    ),
  extended: sql<boolean>`(${ownAssignment.userId} is not null)`.mapWith(Boolean),
};

/** The person's last accepted moment: their late cut-off, else their due date. */
export const ownAssignmentClosesAt =
  sql<Date>`(case when ${ownAssignment.userId} is null then coalesce(${assignmentCourses.lateUntil}, ${assignmentCourses.dueAt}) else coalesce(${ownAssignment.lateUntil}, ${ownAssignment.dueAt}) end)`.mapWith(
    assignmentCourses.dueAt,
  );

export const ownQuizExtension = alias(quizExtensions, 'own_quiz_extension');

/** The join condition of `person`'s extension for the outer query's `quiz_courses` row. */
export const ownQuizExtensionOn = (person: Person) =>
  and(eq(ownQuizExtension.quizCourseId, quizCourses.id), eq(ownQuizExtension.userId, person));

/** Columns: the person's closing time and time limit (extra minutes added), and whether extended. */
export const ownQuizWindow = {
  closesAt: sql<Date>`coalesce(${ownQuizExtension.closesAt}, ${quizCourses.closesAt})`.mapWith(
    quizCourses.closesAt,
  ),
  timeLimitMinutes: sql<
    number | null
  >`(${quizCourses.timeLimitMinutes} + coalesce(${ownQuizExtension.extraMinutes}, 0))`.mapWith(Number),
  extended: sql<boolean>`(${ownQuizExtension.userId} is not null)`.mapWith(Boolean),
};
