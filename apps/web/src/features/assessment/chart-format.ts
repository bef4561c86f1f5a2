import type { Histogram, StudentAnalysis } from '@kadai/contracts';
import type { TFunction } from 'i18next';

/** A ratio 0–1 as a whole percentage in the reader's language ("80%", "80 %"); a dash when unknown. */
export function formatPercent(ratio: number | null | undefined, language: string): string {
  if (ratio === null || ratio === undefined) return '–';
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(ratio);
}

/** "70–80 %": a bin's bounds as whole percentages. */
export function binLabel(bin: Histogram['bins'][number], t: TFunction): string {
  return t('assessment.chart.bin', { from: Math.round(bin.from * 100), to: Math.round(bin.to * 100) });
}

/** Whose page it is: the student reads "your result", an editor "the student's result". */
export type Perspective = 'own' | 'other';

/** "Your result: 70–80 %", or why there is none. */
export function myResultLabel(histogram: Histogram, t: TFunction, perspective: Perspective = 'own'): string {
  const bin = histogram.mine === null ? undefined : histogram.bins[histogram.mine];
  if (perspective === 'other') {
    return bin
      ? t('assessment.chart.theirResult', { bin: binLabel(bin, t) })
      : t('assessment.chart.theirNotCounted');
  }
  return bin ? t('assessment.chart.yourResult', { bin: binLabel(bin, t) }) : t('assessment.chart.notCounted');
}

/**
 * What a screen reader hears for a histogram: the subject, how many students count, the mean, the
 * student's own bin, then every bin with its count (the picture says no more than this).
 */
export function histogramSummary(
  histogram: Histogram,
  subject: string,
  t: TFunction,
  language: string,
  perspective: Perspective = 'own',
): string {
  const head = t('assessment.chart.histogramSummary', {
    subject,
    count: histogram.students,
    mean: formatPercent(histogram.mean, language),
  });
  const bins = histogram.bins
    .map((bin) => t('assessment.chart.binCount', { bin: binLabel(bin, t), count: bin.count }))
    .join(', ');
  return `${head} ${myResultLabel(histogram, t, perspective)}. ${bins}.`;
}

export type SkillScore = StudentAnalysis['skills'][number];

/** Skills by type, types in the order they first appear (the server's order). */
export function groupSkillsByType(skills: readonly SkillScore[]): { type: string; skills: SkillScore[] }[] {
  const groups = new Map<string, SkillScore[]>();
  for (const skill of skills) {
    const group = groups.get(skill.skill_type);
    if (group) group.push(skill);
    else groups.set(skill.skill_type, [skill]);
  }
  return [...groups].map(([type, list]) => ({ type, skills: list }));
}

/** "Skills: Loops 80 %, Recursion no score yet, …" for the skill chart's label. */
export function skillChartSummary(skills: readonly SkillScore[], t: TFunction, language: string): string {
  if (skills.length === 0) return t('assessment.detail.noSkills');
  const items = skills.map((skill) =>
    t('assessment.chart.skillItem', {
      name: skill.name,
      value:
        skill.score.ratio === null
          ? t('assessment.chart.noScore')
          : formatPercent(skill.score.ratio, language),
    }),
  );
  return t('assessment.chart.skillSummary', { items: items.join(', ') });
}

export interface TrendPoint {
  kind: 'assignment' | 'quiz';
  id: number;
  title: string;
  dueAt: string;
  /** The student's share of the points, or null while it does not count. */
  ratio: number | null;
}

/** Assignments and quizzes in the order they were due, each as the share of its points the student got. */
export function trendPoints(analysis: Pick<StudentAnalysis, 'assignments' | 'quizzes'>): TrendPoint[] {
  const points: TrendPoint[] = [
    ...analysis.assignments.map((column) => ({ kind: 'assignment' as const, column })),
    ...analysis.quizzes.map((column) => ({ kind: 'quiz' as const, column })),
  ].map(({ kind, column }) => ({
    kind,
    id: column.id,
    title: column.title,
    dueAt: column.due_at,
    ratio:
      column.score === null || column.max_score <= 0 ? null : Math.min(1, column.score / column.max_score),
  }));
  return points.sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt) || a.id - b.id);
}

/** "Your results in order of due date: Week 1 80 %, Quiz 1 not counted yet, …". */
export function trendSummary(
  points: readonly TrendPoint[],
  t: TFunction,
  language: string,
  perspective: Perspective = 'own',
): string {
  if (points.length === 0) return t('assessment.detail.noWork');
  const items = points.map((point) =>
    t('assessment.chart.skillItem', {
      name: point.title,
      value: point.ratio === null ? t('assessment.chart.noScore') : formatPercent(point.ratio, language),
    }),
  );
  return perspective === 'own'
    ? t('assessment.chart.trendSummary', { items: items.join(', ') })
    : t('assessment.chart.trendSummaryOther', { items: items.join(', ') });
}
