import { z } from 'zod';
import { IsoDate, PageQuery, paginated } from './common.ts';
import { text } from './text.ts';
import { UserSummary } from './users.ts';

/**
 * Per-student extensions (docs/extensions.md): an editor gives one student, or several, their own dates
 * for an assignment (a later due date and late cut-off) or a quiz (a later close, extra minutes).
 */
export const EXTENSION_KINDS = ['assignment', 'quiz'] as const;
export const ExtensionKind = z.enum(EXTENSION_KINDS);
export type ExtensionKind = z.infer<typeof ExtensionKind>;

/** Students one grant may name at once. */
export const MAX_EXTENSION_STUDENTS = 500;
/** Extra quiz minutes one grant may add: a week. */
export const MAX_EXTRA_MINUTES = 7 * 24 * 60;
/** Extensions one list answers at most (a course's whole list fits: students × items granted). */
export const MAX_EXTENSIONS_LISTED = 2000;

/** A student's own dates for an item: the assignment's pair or the quiz's pair (the others null). */
export const ExtensionDates = z
  .object({
    due_at: z.iso.datetime().nullable(),
    late_until: z.iso.datetime().nullable(),
    closes_at: z.iso.datetime().nullable(),
    extra_minutes: z.number().int().nullable(),
  })
  .meta({ id: 'ExtensionDates' });
export type ExtensionDates = z.infer<typeof ExtensionDates>;

export const Extension = ExtensionDates.extend({
  kind: ExtensionKind,
  /** The assignment's id or the quiz's id. */
  item_id: z.number().int(),
  item_title: z.string(),
  user: UserSummary,
  /** The course's dates the extension replaces, to compare: the due date or the closing time. */
  course_due_at: z.iso.datetime(),
  course_late_until: z.iso.datetime().nullable(),
  time_limit_minutes: z.number().int().nullable(),
  reason: z.string(),
  granted_by: UserSummary.nullable(),
  granted_at: z.iso.datetime(),
}).meta({ id: 'Extension' });
export type Extension = z.infer<typeof Extension>;

export const ExtensionList = z
  .object({
    /** How many match; at most MAX_EXTENSIONS_LISTED are in `results`. */
    count: z.number().int(),
    results: z.array(Extension),
  })
  .meta({ id: 'ExtensionList' });
export type ExtensionList = z.infer<typeof ExtensionList>;

export const ExtensionListQuery = z.object({
  kind: ExtensionKind.optional(),
  item_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  user_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

const ItemId = z.number().int().min(1).max(2_147_483_647);
const UserIds = z.array(ItemId).min(1).max(MAX_EXTENSION_STUDENTS);
const Reason = text(500);

/**
 * A grant: the same dates for every student named. Granting again replaces a student's dates (the audit
 * keeps the earlier ones).
 */
export const ExtensionGrant = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('assignment'),
      item_id: ItemId,
      user_ids: UserIds,
      due_at: IsoDate,
      /** Late submissions accepted until then; null: none late for these students. */
      late_until: IsoDate.nullable().default(null),
      reason: Reason,
    }),
    z.strictObject({
      kind: z.literal('quiz'),
      item_id: ItemId,
      user_ids: UserIds,
      /** Their own closing time; null: the course's. */
      closes_at: IsoDate.nullable().default(null),
      /** Minutes added to the time limit; null: none. */
      extra_minutes: z.number().int().min(1).max(MAX_EXTRA_MINUTES).nullable().default(null),
      reason: Reason,
    }),
  ])
  .meta({ id: 'ExtensionGrant' });
export type ExtensionGrant = z.input<typeof ExtensionGrant>;

/**
 * A revocation: why the student goes back to the course's dates, kept in the audit row of the
 * revocation itself (required, as a grant's reason is).
 */
export const ExtensionRevoke = z.strictObject({ reason: Reason }).meta({ id: 'ExtensionRevoke' });
export type ExtensionRevoke = z.input<typeof ExtensionRevoke>;

export const ExtensionParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  kind: ExtensionKind,
  item_id: z.coerce.number().int().min(1).max(2_147_483_647),
  user_id: z.coerce.number().int().min(1).max(2_147_483_647),
});

export const ExtensionAuditEntry = z
  .object({
    id: z.number().int(),
    kind: ExtensionKind,
    item_id: z.number().int(),
    item_title: z.string(),
    user_id: z.number().int().nullable(),
    user_email: z.string(),
    action: z.enum(['granted', 'changed', 'revoked']),
    /** The student's own dates before (null: none) and after (null: revoked). */
    before: ExtensionDates.nullable(),
    after: ExtensionDates.nullable(),
    reason: z.string(),
    actor_email: z.string(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'ExtensionAuditEntry' });
export type ExtensionAuditEntry = z.infer<typeof ExtensionAuditEntry>;

export const ExtensionAuditPage = paginated(ExtensionAuditEntry).meta({ id: 'ExtensionAuditPage' });
export type ExtensionAuditPage = z.infer<typeof ExtensionAuditPage>;
export const ExtensionAuditQuery = PageQuery;
