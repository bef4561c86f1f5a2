import { describe, expect, it } from 'vitest';
import { binOf, histogram, scoreStudent, score, type Results, type WorkColumn } from './analysis.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25);
const column = (id: number, dueAt: number, maxScore: number, visibleAt: number | null = 0): WorkColumn => ({
  id,
  itemId: id,
  title: `#${id}`,
  dueAt,
  maxScore,
  visibleAt,
});
const results = (entries: Partial<Record<keyof Results, [string, number][]>>): Results => ({
  assignments: new Map(entries.assignments ?? []),
  quizzes: new Map(entries.quizzes ?? []),
  skills: new Map(entries.skills ?? []),
});

describe('histogram arithmetic', () => {
  it('puts each ratio in one of ten bins, edges in the upper bin and 100 % in the last', () => {
    expect([0, 0.0999, 0.1, 0.3, 0.7, 0.7999, 0.8, 0.9999, 1].map(binOf)).toEqual([
      0, 0, 1, 3, 7, 7, 8, 9, 9,
    ]);
    // 7 / 10 and 3 / 10 are not exact in binary; they still land on their own bin.
    expect(binOf(7 / 10)).toBe(7);
    expect(binOf(0.1 + 0.2)).toBe(3);
  });

  it('counts the class, marks the student and gives the mean, and names nobody', () => {
    const h = histogram([0, 0.4, 0.6, 0.65, 1], 0.6);
    expect(h.bins.map((b) => b.count)).toEqual([1, 0, 0, 0, 1, 0, 2, 0, 0, 1]);
    expect(h.bins[6]).toEqual({ from: 0.6, to: 0.7, count: 2 });
    expect(h).toMatchObject({ mine: 6, my_ratio: 0.6, students: 5 });
    expect(h.mean).toBeCloseTo(0.53, 10);
    expect(histogram([], null)).toMatchObject({ mine: null, students: 0, mean: null });
  });
});

describe('scores of a student', () => {
  const assignments = [column(1, NOW - DAY, 10), column(2, NOW + DAY, 10)];
  const quizzes = [column(5, NOW - DAY, 4, NOW - DAY), column(6, NOW - DAY, 4, null)];
  const skills = [
    {
      id: 9,
      name: 'Loops',
      skillType: 'programming',
      assignmentPoints: new Map([
        [1, 6],
        [2, 10],
      ]),
      quizPoints: new Map([[5, 2]]),
      wholeAssignments: new Set<number>(),
    },
  ];

  it('counts due work (nothing submitted earns 0) and work graded early, not work still open', () => {
    const none = scoreStudent(7, { assignments, quizzes, skills }, results({}), NOW);
    expect(none.assignments).toEqual([0, null]);
    // A closed quiz counts as 0; one whose scores are not visible does not count at all.
    expect(none.quizzes).toEqual([0, null]);
    expect(none.total).toEqual({ earned: 0, possible: 14, ratio: 0 });
    expect(none.skills).toEqual([{ earned: 0, possible: 8, ratio: 0 }]);

    const early = scoreStudent(
      7,
      { assignments, quizzes, skills },
      results({
        assignments: [
          ['7:1', 5],
          ['7:2', 10],
        ],
        quizzes: [
          ['7:5', 3],
          ['7:6', 4],
        ],
        skills: [['7:9', 14]],
      }),
      NOW,
    );
    expect(early.assignments).toEqual([5, 10]);
    expect(early.quizzes).toEqual([3, null]);
    expect(early.total).toEqual({ earned: 18, possible: 24, ratio: 0.75 });
    expect(early.skills).toEqual([{ earned: 14, possible: 18, ratio: 14 / 18 }]);
  });

  it('never reports more than could be earned, and no ratio of nothing', () => {
    expect(score(12, 10)).toEqual({ earned: 10, possible: 10, ratio: 1 });
    expect(score(0, 0)).toEqual({ earned: 0, possible: 0, ratio: null });
  });
});
