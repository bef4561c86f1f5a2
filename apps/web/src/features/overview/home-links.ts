import { pathTo } from '../../routes/route-table.ts';

/* Where each item of the course home leads: the page of the thing itself. */

export function assignmentPath(courseId: number, assignmentId: number): string {
  return pathTo('AssignmentDetail', { course_id: courseId, assignment_id: assignmentId });
}

export function quizPath(courseId: number, quiz: { quiz_id: number; quiz_course_id: number }): string {
  return pathTo('QuizDetailV2', {
    course_id: courseId,
    quiz_id: quiz.quiz_id,
    quiz_course_id: quiz.quiz_course_id,
  });
}

/** An assignment or a quiz of the home: its `kind` says which ids it carries. */
export function workPath(
  courseId: number,
  work: { assignment_id: number | null; quiz_id: number | null; quiz_course_id: number | null },
): string {
  if (work.quiz_id !== null && work.quiz_course_id !== null) {
    return quizPath(courseId, { quiz_id: work.quiz_id, quiz_course_id: work.quiz_course_id });
  }
  return assignmentPath(courseId, work.assignment_id ?? 0);
}

export function submissionPath(courseId: number, submissionId: number): string {
  return pathTo('SubmissionDetail', { course_id: courseId, submission_id: submissionId });
}

export function quizSubmissionPath(courseId: number, quizId: number, quizSubmissionId: number): string {
  return pathTo('QuizSubmissionDetail', {
    course_id: courseId,
    quiz_id: quizId,
    quiz_submission_id: quizSubmissionId,
  });
}

export function forumPostPath(courseId: number, recordId: number): string {
  return pathTo('ForumDetailInCourse', { course_id: courseId, forum_record_id: recordId });
}

/** The calendar on the event's day (in the reader's zone), its details open. */
export function eventPath(courseId: number, event: { id: number; starts_at: string }): string {
  const start = new Date(event.starts_at);
  const day = [start.getFullYear(), start.getMonth() + 1, start.getDate()]
    .map((part, i) => String(part).padStart(i === 0 ? 4 : 2, '0'))
    .join('-');
  return `${pathTo('Calendar', { course_id: courseId })}?date=${day}&event=${event.id}`;
}
