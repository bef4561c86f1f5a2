import type { CourseRole } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import { visibleRailEntries } from './side-rail-entries.ts';

/** The rail of a course for a caller: their role in it and the session's staff flag. */
const routes = (hasVideos: boolean, hasAssessment: boolean, role: CourseRole) =>
  visibleRailEntries(
    { has_videos: hasVideos, has_assessment: hasAssessment, my_role: role },
    role === 'staff',
  ).map((e) => e.route);

describe('side rail entries', () => {
  it('lists the always-present entries in the spec order', () => {
    expect(routes(false, false, 'student')).toEqual([
      'CourseHome',
      'Workbook',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
    ]);
  });

  it('puts the course home first, for everyone', () => {
    for (const role of ['student', 'editor', 'staff'] as const) {
      expect(routes(false, false, role)[0]).toBe('CourseHome');
    }
  });

  it('shows Lecture Videos only when the course has videos', () => {
    expect(routes(true, false, 'student')).toEqual([
      'CourseHome',
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
    expect(routes(false, true, 'student')).toContain('Assessment');
    expect(routes(false, false, 'staff')).not.toContain('Assessment');
  });

  it('gives a student neither Members nor Settings', () => {
    const student = routes(true, true, 'student');
    expect(student).not.toContain('Members');
    expect(student).not.toContain('Gradebook');
    expect(student).not.toContain('Extensions');
    expect(student).not.toContain('RegradeRequests');
    expect(student).not.toContain('Settings');
  });

  it('gives an editor of the course Members but not Settings', () => {
    expect(routes(true, true, 'editor')).toEqual([
      'CourseHome',
      'Workbook',
      'Video',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
      'Assessment',
      'Gradebook',
      'Extensions',
      'RegradeRequests',
      'Members',
    ]);
  });

  it('gives staff Members and then Settings, last', () => {
    expect(routes(true, true, 'staff')).toEqual([
      'CourseHome',
      'Workbook',
      'Video',
      'Calendar',
      'Assignment',
      'QuizList',
      'Submission',
      'Forum',
      'Assessment',
      'Gradebook',
      'Extensions',
      'RegradeRequests',
      'Members',
      'Settings',
    ]);
    expect(routes(false, false, 'staff').slice(-5)).toEqual([
      'Gradebook',
      'Extensions',
      'RegradeRequests',
      'Members',
      'Settings',
    ]);
  });
});
