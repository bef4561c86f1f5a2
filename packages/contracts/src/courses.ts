import { z } from 'zod';
import { PageQuery, paginated, str } from './common.ts';
import { SetPasswordLink } from './auth.ts';
import { timeZone } from './time-zone.ts';
import { UserSummary } from './users.ts';

export const Course = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    has_videos: z.boolean(),
    has_assessment: z.boolean(),
    /**
     * The IANA zone the course's days end in (`Asia/Tokyo`): the web app's default deadlines are 23:59
     * there. A course that names none has the server's `DEFAULT_TIME_ZONE`.
     */
    time_zone: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    /** The caller's relation to the course: staff see every course, others only their own. */
    my_role: z.enum(['staff', 'editor', 'student']),
    editor_count: z.number().int(),
    student_count: z.number().int(),
  })
  .meta({ id: 'Course' });
export type Course = z.infer<typeof Course>;
export type CourseRole = Course['my_role'];

const Title = str().trim().normalize('NFC').min(1).max(200);
const Description = str().max(10_000);
/** A zone, or null: the server's `DEFAULT_TIME_ZONE` (also later, should that setting change). */
const TimeZoneField = timeZone().nullable();

export const CourseCreate = z.strictObject({
  title: Title,
  description: Description.default(''),
  has_videos: z.boolean().default(false),
  has_assessment: z.boolean().default(false),
  time_zone: TimeZoneField.optional(),
});
export type CourseCreate = z.infer<typeof CourseCreate>;

export const CourseUpdate = z.strictObject({
  title: Title.optional(),
  description: Description.optional(),
  has_videos: z.boolean().optional(),
  has_assessment: z.boolean().optional(),
  time_zone: TimeZoneField.optional(),
});
export type CourseUpdate = z.infer<typeof CourseUpdate>;

/** PUT: every field is required but `time_zone`, which keeps its value when left out (older clients). */
export const CourseReplace = CourseCreate.extend({
  description: Description,
  has_videos: z.boolean(),
  has_assessment: z.boolean(),
});
export type CourseReplace = z.infer<typeof CourseReplace>;

export const COURSE_ORDERINGS = [
  'id',
  '-id',
  'title',
  '-title',
  'created_at',
  '-created_at',
  'updated_at',
  '-updated_at',
] as const;
export type CourseOrdering = (typeof COURSE_ORDERINGS)[number];
export const CourseListQuery = PageQuery.extend({
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(COURSE_ORDERINGS).default('title'),
});
export type CourseListQuery = z.infer<typeof CourseListQuery>;
export const CourseList = paginated(Course);
export type CourseList = z.infer<typeof CourseList>;

export const MemberKind = z.enum(['editor', 'student']);
export type MemberKind = z.infer<typeof MemberKind>;

export const Member = UserSummary.extend({ added_at: z.iso.datetime() }).meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;
/**
 * A member list is one course's people, sent whole (no pages) up to this many; `count` is always the
 * full number, so `count > results.length` tells that the list was cut.
 */
export const MAX_MEMBERS_LISTED = 5000;
/** An institutional id on a list whose person has not signed in yet: they join on their first sign-in. */
export const PendingMember = z
  .object({ id: z.number().int(), institutional_id: z.string(), added_at: z.iso.datetime() })
  .meta({ id: 'PendingMember' });
export type PendingMember = z.infer<typeof PendingMember>;
export const MemberList = z.object({
  count: z.number().int(),
  results: z.array(Member),
  /** The full number of pending entries; `pending` holds up to `MAX_MEMBERS_LISTED` of them, by id. */
  pending_count: z.number().int().default(0),
  pending: z.array(PendingMember).default([]),
});
export type MemberList = z.infer<typeof MemberList>;

/** The most people one request may add: a whole lecture hall, not a whole university. */
export const MAX_MEMBERS_PER_REQUEST = 2000;

/** A user id in a request body: a JSON number, never a numeric string. */
const BodyUserId = z.number().int().min(1).max(2_147_483_647);

export const MemberAddRequest = z
  .strictObject({
    user_ids: z.array(BodyUserId).max(MAX_MEMBERS_PER_REQUEST).default([]),
    /** Entries that are not e-mail addresses come back in `invalid` rather than failing the request. */
    emails: z.array(str().max(1000)).max(MAX_MEMBERS_PER_REQUEST).default([]),
    /** A pasted list or CSV file: e-mail addresses are taken from every cell, one or more a line. */
    csv: str().max(1_000_000).optional(),
    /**
     * Institutional ids (eppn, or student numbers as the provider's `institutional_id` attribute gives
     * them). People who have not signed in yet are held as pending and join on their first sign-in.
     */
    institutional_ids: z.array(str().trim().min(1).max(200)).max(MAX_MEMBERS_PER_REQUEST).default([]),
  })
  .refine(
    (v) =>
      v.user_ids.length + v.emails.length + v.institutional_ids.length > 0 || (v.csv ?? '').trim().length > 0,
    {
      message: 'Give user_ids, emails, institutional_ids or csv.',
      path: ['emails'],
    },
  );
export type MemberAddRequest = z.infer<typeof MemberAddRequest>;

/** Every person asked for lands in exactly one of these lists. */
export const MemberAddResult = z.object({
  /** Existing accounts that were not yet on the list and now are. */
  added: z.array(UserSummary),
  /** Already on the list: nothing changed. */
  already: z.array(UserSummary),
  /**
   * New accounts made for unknown e-mails and added; each is sent an invitation e-mail with its
   * set-password link. `set_password` is that link for staff, null for editors (the e-mail alone has it).
   */
  created: z.array(z.object({ user: UserSummary, set_password: SetPasswordLink.nullable() })),
  /** Entries that are not e-mail addresses (or CSV lines without one). */
  invalid: z.array(z.string()),
  /** User ids that name no account. */
  unknown_ids: z.array(z.number().int()),
  /** E-mails with no account, sent by an editor while e-mail is not delivered (no SMTP_HOST). */
  unknown_emails: z.array(z.string()),
  /**
   * Institutional ids nobody has signed in with yet: held, and joined on that person's first sign-in.
   * An id already held for this list is reported here again (adding is idempotent).
   */
  pending: z.array(z.string()).default([]),
  /** Institutional ids that several accounts have signed in with: nobody is added; ask staff. */
  ambiguous: z.array(z.string()).default([]),
});
export type MemberAddResult = z.infer<typeof MemberAddResult>;

export const MemberRemoveRequest = z
  .strictObject({
    user_ids: z.array(BodyUserId).max(MAX_MEMBERS_PER_REQUEST).default([]),
    /** Pending entries (`PendingMember.id`) to drop from the list. */
    pending_ids: z.array(BodyUserId).max(MAX_MEMBERS_PER_REQUEST).default([]),
  })
  .refine((v) => v.user_ids.length + v.pending_ids.length > 0, {
    message: 'Give user_ids or pending_ids.',
    path: ['user_ids'],
  });
export type MemberRemoveRequest = z.infer<typeof MemberRemoveRequest>;
export const MemberRemoveResult = z.object({
  /** Members that were on the list. */
  removed: z.number().int(),
  /** Pending entries that were on the list. */
  removed_pending: z.number().int().default(0),
});
export type MemberRemoveResult = z.infer<typeof MemberRemoveResult>;
