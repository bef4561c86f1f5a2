import type {
  AssignmentInCourse,
  Extension,
  ExtensionDates,
  ExtensionGrant,
  ExtensionKind,
  QuizInCourse,
} from '@kadai/contracts';
import { fromLocalInput, toLocalInput } from '../assignments/dates.ts';

/** An assignment or quiz one may extend, with the course's dates the extension moves. */
export interface GrantItem {
  /** The assignment's id or the quiz's id (what the API calls `item_id`). */
  id: number;
  title: string;
  /** When it opens in the course: an extension's dates must come after. */
  opens_at: string;
  /** The due date, or the quiz's closing time. */
  due_at: string;
  late_until: string | null;
  time_limit_minutes: number | null;
}

export interface GrantItems {
  assignment: GrantItem[];
  quiz: GrantItem[];
}

/** The course's items from its assignment and quiz lists (an editor reads the course's own dates there). */
export function grantItems(assignments: readonly AssignmentInCourse[], quizzes: readonly QuizInCourse[]) {
  return {
    assignment: assignments.map((assignment) => ({
      id: assignment.id,
      title: assignment.title,
      opens_at: assignment.opens_at,
      due_at: assignment.due_at,
      late_until: assignment.late_until,
      time_limit_minutes: null,
    })),
    quiz: quizzes.map((quiz) => ({
      id: quiz.quiz_id,
      title: quiz.title,
      opens_at: quiz.quiz_course.opens_at,
      due_at: quiz.quiz_course.closes_at,
      late_until: null,
      time_limit_minutes: quiz.quiz_course.time_limit_minutes,
    })),
  } satisfies GrantItems;
}

/** What the grant dialog opens with: nothing but a kind, or a student and an item (gradebook, Change). */
export interface GrantPrefill {
  kind: ExtensionKind;
  /** The assignment's or the quiz's id (a gradebook column's `item_id`). */
  itemId?: number;
  userIds?: number[];
  /** An extension being changed: its dates. */
  dates?: ExtensionDates;
}

/** The dialog's fields; dates are `datetime-local` values in the browser's time zone. */
export interface GrantFormValues {
  kind: ExtensionKind;
  /** The item's id as the Select holds it. */
  item: string | null;
  /** Student ids as the MultiSelect holds them. */
  students: string[];
  due_at: string;
  /** Empty: no late submissions for them. */
  late_until: string;
  /** Empty: the quiz closes for them when it closes for the course. */
  closes_at: string;
  /** Empty: no extra minutes. */
  extra_minutes: number | '';
  reason: string;
}

export type DateFields = Pick<GrantFormValues, 'due_at' | 'late_until' | 'closes_at' | 'extra_minutes'>;

const EMPTY_DATES: DateFields = { due_at: '', late_until: '', closes_at: '', extra_minutes: '' };

/**
 * Two days after a date at its wall-clock time, in the browser's zone (as the inputs are); from today
 * instead when the date has passed, so that an extension of long-closed work is not in the past too.
 */
export function twoDaysLater(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const from = date.getTime() >= now.getTime() ? date : now;
  // Civil-time arithmetic: across a daylight-saving change the time of day stays the same.
  const later = new Date(
    from.getFullYear(),
    from.getMonth(),
    from.getDate() + 2,
    date.getHours(),
    date.getMinutes(),
  );
  return toLocalInput(later.toISOString());
}

/**
 * The dates an item starts with. An assignment is due two days after the course's date (or after today,
 * once that has passed), at the same time. A timed quiz starts empty, because the usual extension there is more minutes; an untimed one can
 * only close later, so it closes two days later, like an assignment.
 */
export function defaultDates(
  kind: ExtensionKind,
  item: GrantItem | undefined,
  now: Date = new Date(),
): DateFields {
  if (!item) return EMPTY_DATES;
  if (kind === 'assignment') return { ...EMPTY_DATES, due_at: twoDaysLater(item.due_at, now) };
  return item.time_limit_minutes === null
    ? { ...EMPTY_DATES, closes_at: twoDaysLater(item.due_at, now) }
    : EMPTY_DATES;
}

function datesOf(dates: ExtensionDates): DateFields {
  return {
    due_at: toLocalInput(dates.due_at),
    late_until: toLocalInput(dates.late_until),
    closes_at: toLocalInput(dates.closes_at),
    extra_minutes: dates.extra_minutes ?? '',
  };
}

export function grantValues(
  prefill: GrantPrefill,
  items: GrantItems,
  now: Date = new Date(),
): GrantFormValues {
  const item = items[prefill.kind].find((candidate) => candidate.id === prefill.itemId);
  return {
    kind: prefill.kind,
    item: item ? String(item.id) : null,
    students: (prefill.userIds ?? []).map(String),
    ...(prefill.dates ? datesOf(prefill.dates) : defaultDates(prefill.kind, item, now)),
    // A change is audited with a reason of its own, so an earlier reason is not offered again.
    reason: '',
  };
}

/** Changing one student's extension: the dialog with their item and dates. */
export function prefillOf(extension: Extension): GrantPrefill {
  return {
    kind: extension.kind,
    itemId: extension.item_id,
    userIds: [extension.user.id],
    dates: extension,
  };
}

/**
 * The request body. Only the fields of the kind are sent; an unreadable date is sent empty for the
 * server to refuse (the form checks before that).
 */
export function toExtensionGrant(values: GrantFormValues, item: GrantItem | undefined): ExtensionGrant {
  const common = {
    item_id: Number(values.item),
    user_ids: values.students.map(Number),
    reason: values.reason.trim(),
  };
  if (values.kind === 'assignment') {
    return {
      kind: 'assignment',
      ...common,
      due_at: fromLocalInput(values.due_at) ?? '',
      late_until: fromLocalInput(values.late_until),
    };
  }
  return {
    kind: 'quiz',
    ...common,
    closes_at: fromLocalInput(values.closes_at),
    // Extra minutes mean nothing without a time limit; a box hidden for such a quiz sends none.
    extra_minutes:
      item?.time_limit_minutes == null || values.extra_minutes === '' ? null : values.extra_minutes,
  };
}

/** The body's fields, as the server names them in a 400, and the form field showing each. */
export const GRANT_FIELDS = {
  item_id: 'item',
  user_ids: 'students',
  due_at: 'due_at',
  late_until: 'late_until',
  closes_at: 'closes_at',
  extra_minutes: 'extra_minutes',
  reason: 'reason',
} as const satisfies Record<string, keyof GrantFormValues>;
