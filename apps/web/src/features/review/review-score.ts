import type { ReviewSettings, RubricItem } from '@kadai/contracts';

/** Hundredths, as the API keeps points: 0.1 + 0.2 shows as 0.3. */
export function roundPoints(points: number): number {
  return Math.round(points * 100) / 100;
}

/** The ticked items' points. */
export function tickedPoints(
  items: readonly Pick<RubricItem, 'id' | 'points'>[],
  ticked: ReadonlySet<number>,
) {
  return roundPoints(items.reduce((sum, item) => (ticked.has(item.id) ? sum + item.points : sum), 0));
}

/**
 * The counted score of a grading, as the API computes it: the autograder's score and the rubric's points
 * (ticked items and the adjustment), each weighted, within 0 and the maximum.
 */
export function reviewTotal(
  settings: Pick<ReviewSettings, 'autograde_weight' | 'rubric_weight'>,
  parts: { autograde: number | null; rubricPoints: number; adjustment: number; maxScore: number },
): number {
  const raw =
    settings.autograde_weight * (parts.autograde ?? 0) +
    settings.rubric_weight * (parts.rubricPoints + parts.adjustment);
  return roundPoints(Math.min(Math.max(raw, 0), parts.maxScore));
}

/** The maximum a rubric's settings give: autograde_weight × the autograder's maximum + rubric_weight × rubric_max. */
export function maximumScore(settings: ReviewSettings, autogradeMax: number): number {
  return roundPoints(settings.autograde_weight * autogradeMax + settings.rubric_weight * settings.rubric_max);
}
