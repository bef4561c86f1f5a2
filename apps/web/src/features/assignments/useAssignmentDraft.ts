import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import {
  changedValues,
  clearAssignmentDraft,
  loadAssignmentDraft,
  saveAssignmentDraft,
  withDraft,
  type AssignmentDraft,
} from './assignment-draft.ts';
import { emptyAssignmentValues, type AssignmentFormValues } from './assignment-form.ts';

/** Typing is saved this long after the last change, not on every keystroke. */
export const DRAFT_DELAY_MS = 500;

/**
 * Keeps the new-assignment form as a draft in this browser (per course) while `enabled`, restores it when
 * the form opens, and forgets it on `discard` or `stop` (the assignment was created, or the changes
 * thrown away).
 */
export function useAssignmentDraft(
  courseId: number,
  /** The course's time zone, for fresh defaults after a discard. */
  courseZone: string,
  form: UseFormReturn<AssignmentFormValues>,
  defaults: AssignmentFormValues,
  enabled: boolean,
) {
  const [restored, setRestored] = useState<AssignmentDraft | null>(() => loadAssignmentDraft(courseId));
  const baseline = useRef(defaults);
  const applied = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const stopped = useRef(false);

  // Restored as changes over the defaults, so the form counts as changed and closing still asks first.
  useEffect(() => {
    if (applied.current || restored === null) return;
    applied.current = true;
    form.reset(withDraft(baseline.current, restored.values), { keepDefaultValues: true });
  }, [form, restored]);

  const write = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (stopped.current) return;
    saveAssignmentDraft(courseId, changedValues(form.getValues(), baseline.current));
  }, [courseId, form]);

  useEffect(() => {
    if (!enabled) return undefined;
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: () => {
        if (timer.current !== null) clearTimeout(timer.current);
        timer.current = setTimeout(write, DRAFT_DELAY_MS);
      },
    });
    // Leaving within the delay (a reload, a link, the dialog unmounting) still keeps the last keystrokes.
    const flush = () => {
      if (timer.current !== null) write();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [enabled, form, write]);

  /** Forget the draft for good: the assignment exists now, or its changes were thrown away. */
  const stop = useCallback(() => {
    stopped.current = true;
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    clearAssignmentDraft(courseId);
  }, [courseId]);

  /** Forget the draft and start again from a new assignment's defaults (dates from now). */
  const discard = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    clearAssignmentDraft(courseId);
    baseline.current = emptyAssignmentValues(courseZone);
    form.reset(baseline.current);
    setRestored(null);
  }, [courseId, courseZone, form]);

  return { restored, stop, discard };
}
