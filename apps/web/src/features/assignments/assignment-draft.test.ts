import { describe, expect, it } from 'vitest';
import {
  assignmentDraftKey,
  changedValues,
  clearAssignmentDraft,
  loadAssignmentDraft,
  saveAssignmentDraft,
  withDraft,
} from './assignment-draft.ts';
import { emptyAssignmentValues } from './assignment-form.ts';
import { browserTimeZone } from './dates.ts';

const ZONE = browserTimeZone();
const DEFAULTS = emptyAssignmentValues(ZONE, new Date('2026-04-01T09:00:00'));

describe('the draft of a new assignment', () => {
  it('keeps only what differs from the defaults, and restores it over fresh ones', () => {
    const typed = { ...DEFAULTS, title: 'Sum', allowed_extensions: ['.py', '.txt'], max_files: 3 };
    const changed = changedValues(typed, DEFAULTS);
    expect(changed).toEqual({ title: 'Sum', allowed_extensions: ['.py', '.txt'], max_files: 3 });

    saveAssignmentDraft(7, changed, new Date('2026-04-01T10:00:00Z'));
    const draft = loadAssignmentDraft(7);
    expect(draft).toEqual({ savedAt: '2026-04-01T10:00:00.000Z', values: changed });

    // A week later the dates left as proposed are proposed afresh.
    const later = emptyAssignmentValues(ZONE, new Date('2026-04-08T09:00:00'));
    const restored = withDraft(later, draft?.values ?? {});
    expect(restored).toEqual({ ...later, title: 'Sum', allowed_extensions: ['.py', '.txt'], max_files: 3 });
  });

  it('is kept per course, and nothing changed means no draft', () => {
    saveAssignmentDraft(7, { title: 'Sum' });
    expect(loadAssignmentDraft(8)).toBeNull();
    saveAssignmentDraft(7, {});
    expect(localStorage.getItem(assignmentDraftKey(7))).toBeNull();
    saveAssignmentDraft(7, { title: 'Sum' });
    clearAssignmentDraft(7);
    expect(loadAssignmentDraft(7)).toBeNull();
  });

  it('drops a field that no longer fits and ignores what is not a draft', () => {
    localStorage.setItem(
      assignmentDraftKey(7),
      JSON.stringify({
        saved_at: '2026-04-01T10:00:00.000Z',
        values: { title: 'Sum', max_files: 'many', required_files: [1, 2], unknown: true },
      }),
    );
    expect(loadAssignmentDraft(7)?.values).toEqual({ title: 'Sum' });

    localStorage.setItem(assignmentDraftKey(7), '{not json');
    expect(loadAssignmentDraft(7)).toBeNull();
    localStorage.setItem(assignmentDraftKey(7), JSON.stringify({ values: { title: 'Sum' } }));
    expect(loadAssignmentDraft(7)).toBeNull();
  });
});
