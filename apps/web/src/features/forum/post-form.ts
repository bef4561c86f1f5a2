import {
  FORUM_MESSAGES,
  MAX_FORUM_FILE_BYTES,
  MAX_FORUM_FILES_PER_POST,
  MAX_SCHEDULE_AHEAD_DAYS,
  MIN_SCHEDULE_LEAD_MINUTES,
} from '@kadai/contracts';
import { isApiError } from '../../api/client.ts';
import { fromLocalInput } from '../assignments/dates.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Spec §9: at most 5 files of 5 MB each on a post. Checked before anything is sent, so a refused file
 * never leaves the browser; true when the chosen files fit beside the ones already there.
 */
export function filesFit(attachedCount: number, chosen: readonly { size: number }[]): boolean {
  if (chosen.some((file) => file.size > MAX_FORUM_FILE_BYTES)) return false;
  return attachedCount + chosen.length <= MAX_FORUM_FILES_PER_POST;
}

export type ScheduleProblem = 'required' | 'tooSoon' | 'tooFar';

/** Spec §5: a scheduled announcement needs a date at least 10 minutes ahead (and within a year). */
export function scheduleProblem(localValue: string, now: Date = new Date()): ScheduleProblem | null {
  const iso = fromLocalInput(localValue);
  if (iso === null) return 'required';
  const ahead = Date.parse(iso) - now.getTime();
  if (ahead < MIN_SCHEDULE_LEAD_MINUTES * MINUTE_MS) return 'tooSoon';
  if (ahead > MAX_SCHEDULE_AHEAD_DAYS * DAY_MS) return 'tooFar';
  return null;
}

export function isBlank(content: string): boolean {
  return content.trim().length === 0;
}

const MESSAGE_KEYS = {
  [FORUM_MESSAGES.emptyContent]: 'forum.postEmpty',
  [FORUM_MESSAGES.uploadLimit]: 'forum.uploadLimit',
  [FORUM_MESSAGES.saveFailed]: 'forum.savePostFailed',
} as const;

/** The i18n key of one of the spec's forum messages when the server answered with one, else null. */
export function forumMessageKey(error: unknown): (typeof MESSAGE_KEYS)[keyof typeof MESSAGE_KEYS] | null {
  if (!isApiError(error)) return null;
  const detail = error.body.detail;
  return detail === FORUM_MESSAGES.emptyContent ||
    detail === FORUM_MESSAGES.uploadLimit ||
    detail === FORUM_MESSAGES.saveFailed
    ? MESSAGE_KEYS[detail]
    : null;
}
