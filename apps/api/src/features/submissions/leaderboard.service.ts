import { createHmac } from 'node:crypto';
import {
  personName,
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardProfile,
  type LeaderboardProfileUpdate,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { findAssignment, listLinks, testCaseTotals } from '../assignments/assignments.service.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import * as standings from './standings.repo.ts';

/* ─── Nicknames ──────────────────────────────────────────────────────────────────────────────── */

const NICKNAME_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const DEFAULT_NICKNAME_PREFIX = 'Anonymous';

/**
 * A student without a nickname appears as "Anonymous K7Q2": stable for the user on every board, but
 * derived with a key (from JWT_SECRET), so it cannot be turned back into a user id.
 */
export function defaultNickname(secret: string, userId: number): string {
  const digest = createHmac('sha256', secret).update(`kadai/leaderboard-nickname/v1:${userId}`).digest();
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += NICKNAME_ALPHABET[digest[i]! % NICKNAME_ALPHABET.length];
  return `${DEFAULT_NICKNAME_PREFIX} ${suffix}`;
}

// Control characters and bidirectional overrides could make one name look like another.
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * A nickname as stored: NFKC-normalised (full-width letters equal half-width ones), no control or
 * formatting characters, not posing as a default name. Unique across users, case-insensitively.
 */
export function normalizeNickname(raw: string): string {
  const nickname = raw.normalize('NFKC').trim();
  if (nickname.length === 0 || nickname.length > 40) {
    throw badRequest('A nickname has 1 to 40 characters.', { nickname: ['1 to 40 characters.'] });
  }
  if (UNSAFE_CHARACTERS.test(nickname)) {
    throw badRequest('A nickname cannot contain control or formatting characters.', {
      nickname: ['Letters, digits, spaces and punctuation only.'],
    });
  }
  if (nickname.toLowerCase().startsWith(DEFAULT_NICKNAME_PREFIX.toLowerCase())) {
    throw badRequest(
      `Nicknames starting with "${DEFAULT_NICKNAME_PREFIX}" are kept for students without one.`,
      {
        nickname: [`Must not start with "${DEFAULT_NICKNAME_PREFIX}".`],
      },
    );
  }
  return nickname;
}

const toProfile = (row: standings.ProfileRow | null | undefined): LeaderboardProfile => ({
  nickname: row?.nickname ?? null,
  opt_out: row?.optOut ?? false,
});

export async function getProfile(ctx: AppContext, actor: Actor): Promise<LeaderboardProfile> {
  return toProfile(await standings.findProfile(ctx.db, actor.userId));
}

const nicknameTaken = () =>
  conflict('Someone else already uses this nickname; choose another.', 'nickname_taken', {
    nickname: ['Already taken.'],
  });

/** `PUT LeaderboardProfile/`: the fields given change (a null nickname goes back to the default). */
export async function updateProfile(
  ctx: AppContext,
  actor: Actor,
  input: LeaderboardProfileUpdate,
): Promise<LeaderboardProfile> {
  const current = await standings.findProfile(ctx.db, actor.userId);
  const nickname =
    input.nickname === undefined
      ? (current?.nickname ?? null)
      : input.nickname === null
        ? null
        : normalizeNickname(input.nickname);
  if (nickname !== null && (await standings.isNicknameTaken(ctx.db, nickname, actor.userId)))
    throw nicknameTaken();
  const saved = await standings.saveProfile(ctx.db, {
    userId: actor.userId,
    nickname,
    optOut: input.opt_out ?? current?.optOut ?? false,
  });
  if (saved === 'nickname_taken') throw nicknameTaken();
  return toProfile(saved);
}

/* ─── The board ──────────────────────────────────────────────────────────────────────────────── */

/** The API's own string is the English rule of personName (docs/accounts.md, "Names"). */
const realName = (s: standings.StudentRow) =>
  personName({ first_name: s.firstName, last_name: s.lastName }, 'en') || s.email;

/**
 * `GET Leaderboard/{assignment_id}/{course_id}`: members of the course who may see the assignment
 * (students once it is open; others 404). Students of the course ranked by their best Completed score,
 * the earlier submission first among equals.
 * - Students see others by nickname only (never e-mail, name or id), and not those who opted out;
 *   their own row is always there (`is_me`), under their nickname, with their id.
 * - Editors and staff see everyone, with real names and ids, even while the board is disabled.
 * - A disabled board (`leaderboard_enabled` false) shows students no entries.
 * Ranks are positions in the list the caller sees (1, 2, 3, …).
 */
export async function getLeaderboard(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<Leaderboard> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  const isManager = role !== 'student';
  const assignment = await findAssignment(ctx.db, assignmentId);
  const link =
    assignment &&
    (await listLinks(ctx.db, [assignmentId], actor.userId)).find((l) => l.courseId === courseId);
  if (!assignment || !link) throw notFound();
  if (!isManager && link.opensAt.getTime() > Date.now()) throw notFound();

  const myProfile = toProfile(await standings.findProfile(ctx.db, actor.userId));
  const maxScore = (await testCaseTotals(ctx.db, [assignmentId])).get(assignmentId)?.points ?? 0;
  const board = {
    assignment_id: assignmentId,
    course_id: courseId,
    enabled: link.leaderboardEnabled,
    max_score: maxScore,
  };
  if (!link.leaderboardEnabled && !isManager) return { ...board, entries: [], my_profile: myProfile };

  const [students, best] = await Promise.all([
    standings.listCourseStudents(ctx.db, courseId),
    standings.listBestSubmissions(ctx.db, assignmentId, courseId),
  ]);
  const ranked = students
    .flatMap((student) => {
      const submission = best.get(student.id);
      return submission?.score == null ? [] : [{ student, score: submission.score, submission }];
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.submission.createdAt.getTime() - b.submission.createdAt.getTime() ||
        a.submission.id - b.submission.id,
    );
  const profiles = await standings.listProfiles(
    ctx.db,
    ranked.map((r) => r.student.id),
  );
  const shown = isManager
    ? ranked
    : ranked.filter((r) => r.student.id === actor.userId || !profiles.get(r.student.id)?.optOut);
  const entries: LeaderboardEntry[] = shown.map((r, index) => {
    const isMe = r.student.id === actor.userId;
    const nickname =
      profiles.get(r.student.id)?.nickname ?? defaultNickname(ctx.config.JWT_SECRET, r.student.id);
    return {
      rank: index + 1,
      name: isManager ? realName(r.student) : nickname,
      first_name: isManager ? r.student.firstName : null,
      last_name: isManager ? r.student.lastName : null,
      user_id: isManager || isMe ? r.student.id : null,
      score: r.score,
      submitted_at: r.submission.createdAt.toISOString(),
      is_me: isMe,
    };
  });
  return { ...board, entries, my_profile: myProfile };
}
