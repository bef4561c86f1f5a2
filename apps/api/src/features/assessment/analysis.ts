import { HISTOGRAM_BINS, type Histogram, type Score } from '@kadai/contracts';

/*
 * The arithmetic of assessment analysis, on rows already loaded (docs/assessment.md):
 * - An assignment counts for a student once it is due, or earlier when they have a graded submission;
 *   a quiz once its scores are visible and it has closed or they submitted. Until then it is left out
 *   of both what they earned and what they could earn (null in the table), so work not yet due never
 *   drags a score down.
 * - A counted assignment earns the points of the student's final submission, or else of their best
 *   graded one; nothing submitted earns 0.
 * - A skill's score is the points earned on its items over the points of its items, over counted work.
 */

export interface WorkColumn {
  id: number;
  /** The assignment's id, or the quiz's (`id` is its quiz-course's). */
  itemId: number;
  title: string;
  /** Due date (assignments) or closing time (quizzes), epoch ms. */
  dueAt: number;
  maxScore: number;
  /** Quizzes: when scores become visible (epoch ms), null while not set. Assignments: always 0. */
  visibleAt: number | null;
}

export interface SkillColumn {
  id: number;
  name: string;
  skillType: string;
  /** Points of the skill's items in each assignment and each quiz (by quiz course) of the course. */
  assignmentPoints: Map<number, number>;
  quizPoints: Map<number, number>;
  /** Assignments tagged as a whole: they earn the submission's points (the sum of its evaluations). */
  wholeAssignments: Set<number>;
}

export interface Results {
  /** `${userId}:${assignmentId}` → points of the counted submission. */
  assignments: Map<string, number>;
  /** `${userId}:${quizCourseId}` → points of the submitted quiz. */
  quizzes: Map<string, number>;
  /** `${userId}:${skillId}` → points earned on the skill's single test cases and quiz questions. */
  skills: Map<string, number>;
}

export interface StudentScores {
  total: Score;
  skills: Score[];
  assignments: (number | null)[];
  quizzes: (number | null)[];
}

export const key = (userId: number, itemId: number) => `${userId}:${itemId}`;

export function score(earned: number, possible: number): Score {
  const capped = Math.min(earned, possible);
  return { earned: capped, possible, ratio: possible > 0 ? capped / possible : null };
}

export function assignmentCounts(column: WorkColumn, submitted: boolean, now: number): boolean {
  return submitted || column.dueAt <= now;
}

export function quizCounts(column: WorkColumn, submitted: boolean, now: number): boolean {
  return column.visibleAt !== null && column.visibleAt <= now && (submitted || column.dueAt <= now);
}

/** One student's row: what counts, what it earned, and each skill over the counted work. */
export function scoreStudent(
  userId: number,
  columns: { assignments: WorkColumn[]; quizzes: WorkColumn[]; skills: SkillColumn[] },
  results: Results,
  now: number,
): StudentScores {
  let earned = 0;
  let possible = 0;
  const countedAssignments = new Set<number>();
  const assignments = columns.assignments.map((column) => {
    const points = results.assignments.get(key(userId, column.id));
    if (!assignmentCounts(column, points !== undefined, now)) return null;
    countedAssignments.add(column.id);
    const got = Math.min(points ?? 0, column.maxScore);
    earned += got;
    possible += column.maxScore;
    return got;
  });
  const countedQuizzes = new Set<number>();
  const quizzes = columns.quizzes.map((column) => {
    const points = results.quizzes.get(key(userId, column.id));
    if (!quizCounts(column, points !== undefined, now)) return null;
    countedQuizzes.add(column.id);
    const got = Math.min(points ?? 0, column.maxScore);
    earned += got;
    possible += column.maxScore;
    return got;
  });
  const skills = columns.skills.map((skill) => {
    let skillPossible = 0;
    for (const [id, points] of skill.assignmentPoints)
      if (countedAssignments.has(id)) skillPossible += points;
    for (const [id, points] of skill.quizPoints) if (countedQuizzes.has(id)) skillPossible += points;
    let skillEarned = results.skills.get(key(userId, skill.id)) ?? 0;
    for (const id of skill.wholeAssignments) skillEarned += results.assignments.get(key(userId, id)) ?? 0;
    return score(skillEarned, skillPossible);
  });
  return { total: score(earned, possible), skills, assignments, quizzes };
}

/** The bin of a ratio: HISTOGRAM_BINS equal bins over [0, 1], the last one closed. */
export function binOf(ratio: number): number {
  // 0.7 * 10 is 7.000000000000001 and 0.3 * 10 is 3.0000000000000004: a tolerance keeps edges in the upper bin.
  return Math.max(0, Math.min(HISTOGRAM_BINS - 1, Math.floor(ratio * HISTOGRAM_BINS + 1e-9)));
}

/** The class's distribution of the ratios that count, with the student's bin; nothing says whose is whose. */
export function histogram(ratios: readonly number[], mine: number | null): Histogram {
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  for (const ratio of ratios) counts[binOf(ratio)]! += 1;
  const sum = ratios.reduce((a, b) => a + b, 0);
  return {
    bins: counts.map((count, i) => ({ from: i / HISTOGRAM_BINS, to: (i + 1) / HISTOGRAM_BINS, count })),
    mine: mine === null ? null : binOf(mine),
    my_ratio: mine,
    students: ratios.length,
    mean: ratios.length > 0 ? sum / ratios.length : null,
  };
}
