import { describe, expect, it } from 'vitest';
import {
  assignmentValues,
  emptyAssignmentValues,
  normaliseExtension,
  toAssignmentCreate,
  toAssignmentUpdate,
  type EditorAssignment,
} from './assignment-form.ts';
import { assignmentCourse, editorAssignment } from '../../test/assignment.ts';
import { availabilityOf, browserTimeZone } from './dates.ts';

const COURSE_1 = assignmentCourse(1, {
  opens_at: '2026-04-01T00:00:00.000Z',
  due_at: '2026-04-08T00:00:00.000Z',
});
const COURSE_2 = { ...COURSE_1, course_id: 2, course_title: 'Python B', due_at: '2026-04-15T00:00:00.000Z' };

const ASSIGNMENT: EditorAssignment = editorAssignment({
  id: 9,
  max_files: 5,
  max_file_bytes: 1024 * 1024,
  created_by: 1,
  created_at: COURSE_1.opens_at,
  updated_at: COURSE_1.opens_at,
  courses: [COURSE_1, COURSE_2],
});

describe('assignment form', () => {
  it('starts a new assignment open now, due at 23:59 a week from today, with no late period', () => {
    const now = new Date('2026-04-01T10:20:30');
    // A course in the browser's own zone: the inputs show 23:59.
    const values = emptyAssignmentValues(browserTimeZone(), now);
    expect(values.opens_at).toBe('2026-04-01T10:20');
    expect(values.due_at).toBe('2026-04-08T23:59');
    expect(values.late_until).toBe('');
    // Saved with the defaults, it is open for students at once.
    const dates = toAssignmentCreate({ ...values, title: 'Sum' }, 1).courses[0]!;
    expect(availabilityOf({ ...dates, late_until: null }, now)).toBe('open');
  });

  it('is due at 23:59 in the course’s zone, whatever the browser’s', () => {
    const values = emptyAssignmentValues('Asia/Tokyo', new Date('2026-05-01T00:10:00Z'));
    expect(toAssignmentCreate({ ...values, title: 'Sum' }, 1).courses[0]?.due_at).toBe(
      '2026-05-08T14:59:00.000Z',
    );
  });

  it('creates with the current course, sizes in bytes and normalised extensions', () => {
    const values = {
      ...emptyAssignmentValues('UTC'),
      title: '  Sum ',
      allowed_extensions: ['py', '.PY', '.txt'],
      max_file_kb: 2,
    };
    const body = toAssignmentCreate(values, 1);
    expect(body).toMatchObject({ title: 'Sum', allowed_extensions: ['.py', '.txt'], max_file_bytes: 2048 });
    expect(body.courses).toHaveLength(1);
    expect(body.courses[0]).toMatchObject({ course_id: 1, late_until: null, leaderboard_enabled: true });
  });

  it('leaves the course list alone when no date changed', () => {
    const values = assignmentValues(ASSIGNMENT, COURSE_1);
    expect(toAssignmentUpdate(values, ASSIGNMENT, 1, new Set(['title']))).not.toHaveProperty('courses');
  });

  it('sends every course, the others unchanged, when this course’s dates changed', () => {
    const values = { ...assignmentValues(ASSIGNMENT, COURSE_1), leaderboard_enabled: false };
    const update = toAssignmentUpdate(values, ASSIGNMENT, 1, new Set(['leaderboard_enabled']));
    expect(update.courses).toEqual([
      {
        course_id: 2,
        opens_at: COURSE_2.opens_at,
        due_at: COURSE_2.due_at,
        late_until: null,
        leaderboard_enabled: true,
      },
      {
        course_id: 1,
        opens_at: COURSE_1.opens_at,
        due_at: COURSE_1.due_at,
        late_until: null,
        leaderboard_enabled: false,
      },
    ]);
  });

  it('normalises extensions', () => {
    expect(normaliseExtension(' PY ')).toBe('.py');
    expect(normaliseExtension('.Txt')).toBe('.txt');
  });
});
