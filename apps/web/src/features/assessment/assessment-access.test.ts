import { describe, expect, it } from 'vitest';
import { canManageAssessment, decideAssessmentAccess } from './assessment-access.ts';

const editor = { canManage: true, userId: 2 };
const student = { canManage: false, userId: 4 };

describe('the Assessment route guard (spec §2)', () => {
  it('waits for the existence check before deciding', () => {
    expect(decideAssessmentAccess('table', { status: 'pending' }, editor)).toEqual({ kind: 'wait' });
  });

  it('blocks when there is no assessment analysis, for everyone', () => {
    for (const viewer of [editor, student]) {
      expect(decideAssessmentAccess('table', { status: 'success', exists: false }, viewer)).toEqual({
        kind: 'blocked',
      });
      expect(decideAssessmentAccess('detail', { status: 'success', exists: false }, viewer)).toEqual({
        kind: 'blocked',
      });
    }
  });

  it('lets nothing proceed on a request error', () => {
    expect(decideAssessmentAccess('table', { status: 'error' }, editor)).toEqual({ kind: 'error' });
    expect(decideAssessmentAccess('detail', { status: 'error' }, student)).toEqual({ kind: 'error' });
  });

  it('shows staff and editors the table and sends others to their own detail', () => {
    const exists = { status: 'success', exists: true } as const;
    expect(decideAssessmentAccess('table', exists, editor)).toEqual({ kind: 'proceed' });
    expect(decideAssessmentAccess('table', exists, student)).toEqual({ kind: 'redirect', userId: 4 });
    expect(decideAssessmentAccess('table', exists, { canManage: false, userId: null })).toEqual({
      kind: 'blocked',
    });
  });

  it('lets AssessmentDetail proceed on existence alone', () => {
    expect(decideAssessmentAccess('detail', { status: 'success', exists: true }, student)).toEqual({
      kind: 'proceed',
    });
  });

  it('counts staff and editors of this course (session or course role) as managers', () => {
    const none = { is_staff: false, editorCourses: [] };
    expect(canManageAssessment({ id: 1, my_role: 'student' }, none)).toBe(false);
    expect(canManageAssessment({ id: 1, my_role: 'student' }, { ...none, is_staff: true })).toBe(true);
    expect(canManageAssessment({ id: 1, my_role: 'student' }, { ...none, editorCourses: [1] })).toBe(true);
    expect(canManageAssessment({ id: 1, my_role: 'student' }, { ...none, editorCourses: [2] })).toBe(false);
    expect(canManageAssessment({ id: 1, my_role: 'editor' }, none)).toBe(true);
  });
});
