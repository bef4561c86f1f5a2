import { z } from 'zod';
import type { AssignmentFormValues } from './assignment-form.ts';

/*
 * The draft of a new assignment, kept in this browser per course until the assignment is created or the
 * draft discarded. Only what was typed is kept: files cannot be stored in localStorage (and a File picked
 * once cannot be read again after a reload), so attachments are added after creating.
 */

const PREFIX = 'kadai-assignment-draft:';
/** A statement is at most 100 000 characters; beyond this the draft is not worth the storage. */
const MAX_DRAFT_CHARACTERS = 400_000;

export function assignmentDraftKey(courseId: number): string {
  return `${PREFIX}${courseId}`;
}

/** Every field of the form, each checked on its own: one that no longer fits is dropped, the rest restored. */
const FIELDS = [
  'title',
  'statement',
  'starter_code',
  'reference_solution',
  'entry_file',
  'required_files',
  'allowed_extensions',
  'max_files',
  'max_file_kb',
  'opens_at',
  'due_at',
  'late_until',
  'leaderboard_enabled',
] as const satisfies readonly (keyof AssignmentFormValues)[];
// A field added to the form must be added here too, or its drafts would silently lose it.
const EVERY_FIELD_LISTED: [Exclude<keyof AssignmentFormValues, (typeof FIELDS)[number]>] extends [never]
  ? true
  : false = true;
void EVERY_FIELD_LISTED;

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const DraftValues = z.object({
  title: optional(z.string()),
  statement: optional(z.string()),
  starter_code: optional(z.string()),
  reference_solution: optional(z.string()),
  entry_file: optional(z.string()),
  required_files: optional(z.array(z.string())),
  allowed_extensions: optional(z.array(z.string())),
  max_files: optional(z.number().int()),
  max_file_kb: optional(z.number().int()),
  opens_at: optional(z.string()),
  due_at: optional(z.string()),
  late_until: optional(z.string()),
  leaderboard_enabled: optional(z.boolean()),
} satisfies Record<(typeof FIELDS)[number], z.ZodType>);
const StoredDraft = z.object({ saved_at: z.iso.datetime(), values: z.unknown() });

export interface AssignmentDraft {
  savedAt: string;
  /** Only the fields that differ from a new assignment's defaults. */
  values: Partial<AssignmentFormValues>;
}

function copyField<K extends keyof AssignmentFormValues>(
  target: Partial<AssignmentFormValues>,
  source: Partial<AssignmentFormValues>,
  key: K,
): void {
  const value = source[key];
  if (value !== undefined) target[key] = value;
}

/** The fields of `values` that differ from `defaults`: what a draft needs to keep. */
export function changedValues(
  values: AssignmentFormValues,
  defaults: AssignmentFormValues,
): Partial<AssignmentFormValues> {
  const changed: Partial<AssignmentFormValues> = {};
  for (const field of FIELDS) {
    if (JSON.stringify(values[field]) !== JSON.stringify(defaults[field])) copyField(changed, values, field);
  }
  return changed;
}

/** `defaults` with the draft's fields over them: untouched fields (the dates) are today's defaults. */
export function withDraft(
  defaults: AssignmentFormValues,
  draft: Partial<AssignmentFormValues>,
): AssignmentFormValues {
  const merged = { ...defaults };
  for (const field of FIELDS) copyField(merged, draft, field);
  return merged;
}

export function loadAssignmentDraft(courseId: number): AssignmentDraft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(assignmentDraftKey(courseId)) ?? 'null');
  } catch {
    return null;
  }
  const stored = StoredDraft.safeParse(raw);
  if (!stored.success) return null;
  const parsed = DraftValues.safeParse(stored.data.values);
  if (!parsed.success) return null;
  const values: Partial<AssignmentFormValues> = {};
  for (const field of FIELDS) copyField(values, parsed.data, field);
  return Object.keys(values).length > 0 ? { savedAt: stored.data.saved_at, values } : null;
}

/** Keeps `values` as the course's draft; nothing changed means no draft. */
export function saveAssignmentDraft(
  courseId: number,
  values: Partial<AssignmentFormValues>,
  now: Date = new Date(),
): void {
  if (Object.keys(values).length === 0) {
    clearAssignmentDraft(courseId);
    return;
  }
  const text = JSON.stringify({ saved_at: now.toISOString(), values });
  if (text.length > MAX_DRAFT_CHARACTERS) return;
  try {
    localStorage.setItem(assignmentDraftKey(courseId), text);
  } catch {
    // Storage full or disabled: the form still works, only without a draft.
  }
}

export function clearAssignmentDraft(courseId: number): void {
  try {
    localStorage.removeItem(assignmentDraftKey(courseId));
  } catch {
    // Nothing to clear.
  }
}
