import { describe, expect, it } from 'vitest';
import { visibleRailEntries } from './side-rail-entries.ts';

const routes = (hasVideos: boolean, hasAssessment: boolean, isStaff: boolean) =>
  visibleRailEntries({ has_videos: hasVideos, has_assessment: hasAssessment }, isStaff).map((e) => e.route);

describe('side rail entries', () => {
  it('lists the always-present entries in the spec order', () => {
    expect(routes(false, false, false)).toEqual([
      'Workbook',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
    ]);
  });

  it('shows Lecture Videos only when the course has videos', () => {
    expect(routes(true, false, false)).toEqual([
      'Workbook',
      'Video',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
    ]);
  });

  it('shows Assessment only when the course has assessment', () => {
    expect(routes(false, true, false)).toContain('Assessment');
    expect(routes(false, false, true)).not.toContain('Assessment');
  });

  it('shows Settings only to staff', () => {
    expect(routes(true, true, true)).toEqual([
      'Workbook',
      'Video',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
      'Assessment',
      'Settings',
    ]);
    expect(routes(true, true, false)).not.toContain('Settings');
  });
});
