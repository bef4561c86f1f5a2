import type { RegradeRequest, ReviewComment, ReviewScore } from '@kadai/contracts';
import type { CommentRow } from './comments.repo.ts';
import type { RegradeRow } from './regrades.repo.ts';
import type { Person } from './reviews.repo.ts';

/* The API's shapes of review rows, shared by the editors' and the students' reads. */

export const round2 = (n: number) => Math.round(n * 100) / 100;

export function toComment(row: CommentRow, people: Map<number, Person>, studentId: number): ReviewComment {
  return {
    id: row.id,
    parent_id: row.parentId,
    author: row.authorId === null ? null : (people.get(row.authorId) ?? null),
    by_student: row.authorId === studentId,
    filename: row.filename,
    line_start: row.lineStart,
    line_end: row.lineEnd,
    body: row.body,
    rubric_item_id: row.rubricItemId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A person from the four columns of a left join: null when the join found nobody. */
export const person = (id: number | null, email: string | null, first: string | null, last: string | null) =>
  id === null ? null : { id, email: email ?? '', first_name: first ?? '', last_name: last ?? '' };

export function toRegrade(row: RegradeRow): RegradeRequest {
  return {
    id: row.id,
    submission_id: row.submission_id,
    assignment_id: row.assignment_id,
    assignment_title: row.assignment_title,
    course_id: row.course_id,
    user: {
      id: row.user_id,
      email: row.user_email,
      first_name: row.user_first_name,
      last_name: row.user_last_name,
    },
    rubric_item_id: row.rubric_item_id,
    rubric_item_title: row.rubric_item_title,
    comment_id: row.comment_id,
    reason: row.reason,
    status: row.status,
    answer: row.answer,
    answered_by: person(
      row.answered_by_id,
      row.answered_by_email,
      row.answered_by_first_name,
      row.answered_by_last_name,
    ),
    answered_at: row.answered_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export interface ScoreFacts {
  autograde_score: number | null;
  autograde_max: number | null;
  rubric_points: number | null;
  adjustment: number | null;
  total: number | null;
  max_score: number;
}

/** The score parts; without a review the total is what the autograder gave. */
export function toScore(facts: ScoreFacts): ReviewScore {
  return {
    autograde_score: facts.autograde_score,
    autograde_max: facts.autograde_max,
    rubric_points: round2(facts.rubric_points ?? 0),
    adjustment: round2(facts.adjustment ?? 0),
    total: round2(facts.total ?? facts.autograde_score ?? 0),
    max_score: round2(facts.max_score),
  };
}
