import { z } from 'zod';
import { Email, Language, PageQuery, paginated, str } from './common.ts';

/* ─── Self-registration by e-mail (docs/accounts.md) ─────────────────────────────────────────── */

const RegistrationPassword = str().min(1).max(128);
const PersonName = str().trim().normalize('NFC').max(150);

export const RegistrationRequest = z.object({
  email: Email,
  password1: RegistrationPassword,
  password2: RegistrationPassword,
  first_name: PersonName.optional(),
  last_name: PersonName.optional(),
  /** The language of the account and of its e-mails; default: the caller's Accept-Language, else ja. */
  display_lang: Language.optional(),
});
export type RegistrationRequest = z.infer<typeof RegistrationRequest>;

export const VerifyEmailRequest = z.object({ key: str().trim().normalize('NFC').min(1).max(256) });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;

export const ResendEmailRequest = z.object({ email: Email });
export type ResendEmailRequest = z.infer<typeof ResendEmailRequest>;

/* ─── The outbox staff read ──────────────────────────────────────────────────────────────────── */

export const EMAIL_KINDS = [
  'verify_email',
  'invitation',
  'set_password',
  'notification',
  'digest',
  'data_export',
] as const;
export const EmailKind = z.enum(EMAIL_KINDS);
export type EmailKind = z.infer<typeof EmailKind>;

/** pending: waiting to be sent (or retried); sent; failed after every retry; kept: no SMTP, read here. */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'kept'] as const;
export const EmailStatus = z.enum(EMAIL_STATUSES);
export type EmailStatus = z.infer<typeof EmailStatus>;

export const OutboxQuery = PageQuery.extend({ status: EmailStatus.optional() });
export type OutboxQuery = z.infer<typeof OutboxQuery>;

export const OutboxEmailSummary = z
  .object({
    id: z.number().int(),
    kind: EmailKind,
    to_address: z.string(),
    to_user_id: z.number().int().nullable(),
    lang: Language,
    subject: z.string(),
    status: EmailStatus,
    attempts: z.number().int(),
    last_error: z.string(),
    sent_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OutboxEmailSummary' });
export type OutboxEmailSummary = z.infer<typeof OutboxEmailSummary>;

export const OutboxEmail = OutboxEmailSummary.extend({ text_body: z.string() }).meta({ id: 'OutboxEmail' });
export type OutboxEmail = z.infer<typeof OutboxEmail>;

export const OutboxList = paginated(OutboxEmailSummary);
export type OutboxList = z.infer<typeof OutboxList>;
