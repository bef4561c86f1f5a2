import type { listCourseWork } from '../assessment/gradebook.service.ts';

/*
 * An assignment or a quiz of a course as Kadai names it to an LMS: `assignment:12` or `quiz:7` (a quiz
 * of the course, by its quiz_courses id), in a deep-linked link's `custom.kadai_item` and its line
 * item's `resourceId`, by which launches and line items find it again.
 */

export interface KadaiItem {
  kind: 'assignment' | 'quiz';
  id: number;
}

export const itemRef = (item: KadaiItem): string => `${item.kind}:${item.id}`;

export function parseItemRef(text: string | null | undefined): KadaiItem | null {
  const match = /^(assignment|quiz):(\d{1,10})$/.exec(text ?? '');
  return match ? { kind: match[1] === 'assignment' ? 'assignment' : 'quiz', id: Number(match[2]) } : null;
}

type CourseWork = Awaited<ReturnType<typeof listCourseWork>>;

/** The item's column of the course's work (title, maximum, due date), or undefined when not in it. */
export function columnOf(work: CourseWork, item: KadaiItem) {
  return (item.kind === 'assignment' ? work.assignments : work.quizzes).find((c) => c.id === item.id);
}
