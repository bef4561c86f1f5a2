import { randomBytes } from 'node:crypto';
import type { Erasure, ErasureList, ErasureListQuery } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { forumSearchVector } from '../forum/search.ts';
import {
  countOtherActiveStaff,
  eraseRows,
  isActiveStaff,
  lockPersonForErasure,
  pseudonymiseNotificationFacts,
  pseudonymiseUser,
  type ErasurePlan,
} from './erasure.repo.ts';
import {
  findErasureOf,
  insertErasure,
  listErasures,
  recordFilesFailed,
  type ErasureRow,
} from './privacy.repo.ts';

/*
 * Staff erase a person (docs/privacy.md, "Erasure"): their personal data removed or replaced by a
 * pseudonym in every table, in one transaction; grades kept under the pseudonym when
 * ERASURE_KEEP_GRADES; an audit entry kept. Stored files go after the commit, best effort.
 */

/** What a forum post replaced by an erasure says: in both languages, as the forum has no per-reader text. */
export const FORUM_PLACEHOLDER = {
  title: '（削除された投稿）/ (Removed post)',
  content:
    'この投稿は、投稿者の個人データの削除に伴い取り除かれました。\n\nThis post was removed when its author’s personal data was erased.',
};

export const pseudonymOf = (userId: number) => `Erased user ${userId}`;
/**
 * Undeliverable (`.invalid` never resolves, RFC 2606) and unique: the random part keeps an address
 * someone registered ahead of time from blocking the erasure.
 */
export const placeholderEmailOf = (userId: number) =>
  `erased-${userId}-${randomBytes(6).toString('hex')}@erased.invalid`;

function toErasure(row: ErasureRow): Erasure {
  return {
    id: row.id,
    user_id: row.userId,
    pseudonym: row.pseudonym,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    erased_at: row.erasedAt.toISOString(),
    kept_grades: row.keptGrades,
    forum_text: row.forumText,
    rows: row.rows,
    files: row.files,
    files_failed: row.filesFailed,
  };
}

/**
 * Erases person `userId` for staff member `actor`, who confirms by typing the person's e-mail
 * address. Refused: an unknown person (404), oneself (409), someone already erased (409), the last
 * active staff account (409), a wrong confirmation (400).
 */
export async function erasePerson(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  confirmEmail: string,
): Promise<Erasure> {
  const keepGrades = ctx.config.ERASURE_KEEP_GRADES;
  const forumText = ctx.config.ERASURE_FORUM_TEXT;
  const done = await ctx.db.transaction(async (tx) => {
    const person = await lockPersonForErasure(tx, userId);
    if (!person) throw notFound();
    if (person.id === actor.userId) {
      throw conflict('You cannot erase your own account; ask another staff member.', 'erase_self');
    }
    if (await findErasureOf(tx, userId)) {
      throw conflict('This person has already been erased.', 'already_erased');
    }
    if (confirmEmail.trim().toLowerCase() !== person.email.toLowerCase()) {
      throw badRequest(
        'Type the person’s e-mail address to confirm.',
        { confirm_email: ['This is not the e-mail address of the person to erase.'] },
        'confirmation_mismatch',
      );
    }
    // Checked after the erasures before this one (the lock above): two staff erasing each other at
    // once leave the second refused, never a system without staff.
    if (person.is_staff && person.is_active && (await countOtherActiveStaff(tx, userId)) === 0) {
      throw conflict('This is the last active staff account; it cannot be erased.', 'last_staff');
    }
    if (!(await isActiveStaff(tx, actor.userId))) throw forbidden();
    const pseudonym = pseudonymOf(userId);
    const plan: ErasurePlan = {
      userId,
      email: person.email,
      placeholderEmail: placeholderEmailOf(userId),
      keepGrades,
      forumText,
      name: { first_name: person.first_name, last_name: person.last_name },
      pseudonymName: { first_name: '', last_name: pseudonym },
      forumPlaceholder: {
        ...FORUM_PLACEHOLDER,
        topicVector: forumSearchVector(FORUM_PLACEHOLDER.title, FORUM_PLACEHOLDER.content),
        commentVector: forumSearchVector('', FORUM_PLACEHOLDER.content),
      },
    };
    const outcome = await eraseRows(tx, plan);
    const facts = await pseudonymiseNotificationFacts(tx, plan);
    if (facts > 0) outcome.rows['notifications (others’, naming them)'] = facts;
    await pseudonymiseUser(tx, userId, pseudonym, plan.placeholderEmail);
    outcome.rows.users = 1;
    const audit = await insertErasure(tx, {
      userId,
      pseudonym,
      actorId: actor.userId,
      actorEmail: actor.email,
      keptGrades: keepGrades,
      forumText,
      rows: outcome.rows,
      files: outcome.storageKeys.length,
    });
    return { audit, storageKeys: outcome.storageKeys };
  });
  // Their sessions are gone: this process forgets them now, the others by the database's notice.
  ctx.sessions.forgetUser(userId);
  let failed = 0;
  for (const key of done.storageKeys) {
    try {
      await ctx.storage.delete(key);
    } catch (error) {
      failed++;
      ctx.log.error({ err: error, key, erasureId: done.audit.id }, 'privacy: could not delete a stored file');
    }
  }
  const audit =
    failed > 0 ? ((await recordFilesFailed(ctx.db, done.audit.id, failed)) ?? done.audit) : done.audit;
  ctx.log.info(
    { erasureId: audit.id, userId, actorId: actor.userId, files: done.storageKeys.length, failed },
    'privacy: erased a person',
  );
  return toErasure(audit);
}

/** The erasures' audit, newest first (staff). */
export async function listErasuresForStaff(ctx: AppContext, query: ErasureListQuery): Promise<ErasureList> {
  const { count, rows } = await listErasures(ctx.db, query.limit, query.offset);
  return { count, limit: query.limit, offset: query.offset, results: rows.map(toErasure) };
}
