import type { OutboxEmail, OutboxEmailSummary, OutboxQuery } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { languageOf } from '../users/users.shape.ts';
import { findEmail, listEmails, type EmailRow } from './mail.repo.ts';

/**
 * The outbox as staff read it (routes declare `staff`). Bodies hold set-password links, which staff can
 * make themselves; the list leaves them out, the single e-mail has them.
 */
function toSummary(row: EmailRow): OutboxEmailSummary {
  return {
    id: row.id,
    kind: row.kind,
    to_address: row.toAddress,
    to_user_id: row.toUserId,
    lang: languageOf({ displayLang: row.lang }),
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    sent_at: row.sentAt ? row.sentAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listOutbox(ctx: AppContext, query: OutboxQuery) {
  const { count, rows } = await listEmails(ctx.db, query);
  return { count, limit: query.limit, offset: query.offset, results: rows.map(toSummary) };
}

export async function getOutboxEmail(ctx: AppContext, id: number): Promise<OutboxEmail> {
  const row = await findEmail(ctx.db, id);
  if (!row) throw notFound();
  return { ...toSummary(row), text_body: row.textBody };
}
