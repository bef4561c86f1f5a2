import { z } from 'zod';
import { BoolQuery, Id, IsoDate, PageQuery, paginated, str } from './common.ts';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, UPLOAD_LIMIT_MESSAGE } from './files.ts';

/* The course forum (docs/forum.md explains the choices). */

/** Spec §9: editor uploads, per file and per post (the same rule as assignment attachments). */
export const MAX_FORUM_FILE_BYTES = MAX_UPLOAD_FILE_BYTES;
export const MAX_FORUM_FILES_PER_POST = MAX_UPLOAD_FILES;
/** Uploads not yet attached to a post that one user may hold in one course (the editor's tray). */
export const MAX_FORUM_PENDING_FILES = 20;
/** Spec §5: a scheduled announcement is at least this far ahead when it is scheduled. */
export const MIN_SCHEDULE_LEAD_MINUTES = 10;
/** Scheduling further ahead than a year is a typo, not a plan. */
export const MAX_SCHEDULE_AHEAD_DAYS = 366;
export const MAX_FORUM_TITLE = 200;
export const MAX_FORUM_CONTENT = 50_000;
export const MAX_FORUM_SEARCH = 100;
/** Upvoters listed by `ForumUpvoteUsers` (the answer says how many there are in all). */
export const MAX_UPVOTERS_LISTED = 100;
/**
 * A search counts its matches up to this many: past it the answer's `count` is this number and
 * `count_exact` is false ("100+"), so a common word costs no more than a rare one (counting to 1,000
 * rechecked ~2,800 rows: 5–40 ms; to 100, under 1 ms — docs/performance.md).
 */
export const MAX_FORUM_SEARCH_COUNT = 100;

/** Spec §5 and §8, word for word: the API's `detail` for these cases, the page's message. */
export const FORUM_MESSAGES = {
  emptyContent: 'Post content is empty.',
  uploadLimit: UPLOAD_LIMIT_MESSAGE,
  saveFailed: 'Saving post failed.',
} as const;

/** Who wrote a post, as classmates see it: a name and a role badge, never an e-mail address. */
export const ForumAuthor = z
  .object({
    id: z.number().int(),
    /** First and last name, or the part of the e-mail before "@" when the user has set no name. */
    display_name: z.string(),
    /**
     * The name's parts, for screens to write in the reader's order (`personName`); empty when the
     * user has set none (then `display_name` stands in).
     */
    first_name: z.string(),
    last_name: z.string(),
    /** `editor` for editors of the course, `staff` for system staff who are not, else `student`. */
    role: z.enum(['student', 'editor', 'staff']),
  })
  .meta({ id: 'ForumAuthor' });
export type ForumAuthor = z.infer<typeof ForumAuthor>;

/** A file attached to a post. The bytes come through `Forum/ForumSignedURL/` (a short-lived URL). */
export const ForumFile = z
  .object({
    id: z.number().int(),
    course_id: z.number().int(),
    /** The post it is attached to; null while it waits in the editor's tray. */
    record_id: z.number().int().nullable(),
    filename: z.string(),
    size: z.number().int(),
    content_type: z.string(),
    /** Images can be shown inline (PNG, JPEG, GIF, WebP; never SVG, which can carry script). */
    is_image: z.boolean(),
    uploaded_by: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'ForumFile' });
export type ForumFile = z.infer<typeof ForumFile>;

/**
 * A forum record: a topic (`parent_record` null: a discussion or an announcement) or a comment on one
 * (`parent_record` set; its `title` is empty and it is never an announcement, pinned or scheduled).
 */
export const ForumRecord = z
  .object({
    id: z.number().int(),
    course_id: z.number().int(),
    parent_record: z.number().int().nullable(),
    title: z.string(),
    /** Markdown, as written. Pages render it with raw HTML disabled and the result sanitised. */
    content: z.string(),
    author: ForumAuthor,
    is_announcement: z.boolean(),
    pinned: z.boolean(),
    /** When a scheduled announcement goes out (null: not scheduled). */
    scheduled_at: z.iso.datetime().nullable(),
    /** When students could first see it; null while scheduled. */
    published_at: z.iso.datetime().nullable(),
    upvotes: z.number().int(),
    /** Whether the caller has upvoted it. */
    upvoted: z.boolean(),
    /** Whether the caller has read it (topics; comments are read with their topic: always true). */
    is_read: z.boolean(),
    /** Comments on a topic (0 for comments). */
    comment_count: z.number().int(),
    attachments: z.array(ForumFile),
    /** Whether the caller may edit and delete it: its author, editors of the course, staff. */
    can_edit: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    /** Who last changed it (the author, or an editor who edited or pinned it). */
    updated_by: z.number().int().nullable(),
    /** The latest of its publication and its newest comment: what "latest activity" sorts by. */
    last_activity_at: z.iso.datetime(),
  })
  .meta({ id: 'ForumRecord' });
export type ForumRecord = z.infer<typeof ForumRecord>;

const Title = str().trim().normalize('NFC').max(MAX_FORUM_TITLE);
/** Emptiness is checked by the server after trimming, answering 'Post content is empty.'. */
const Content = str().max(MAX_FORUM_CONTENT);
const Attachments = z.array(Id).max(MAX_FORUM_FILES_PER_POST * 4);

/**
 * `POST Forum/Record/`: a topic, or with `parent_record` a comment. Announcements, pinning and
 * scheduling are for editors of the course and staff (403 for students). `attachments` are ids of
 * files the caller uploaded to this course through `ForumFileUpload` and not yet attached.
 */
export const ForumRecordCreate = z
  .strictObject({
    course: Id,
    parent_record: Id.nullable().default(null),
    title: Title.default(''),
    content: Content,
    is_announcement: z.boolean().default(false),
    pinned: z.boolean().default(false),
    scheduled_at: IsoDate.nullable().default(null),
    attachments: Attachments.default([]),
  })
  .meta({ id: 'ForumRecordCreate' });
export type ForumRecordCreate = z.input<typeof ForumRecordCreate>;

/** `PUT Forum/Record/{id}/`: the whole editable post. `attachments` is the full new list. */
export const ForumRecordReplace = z
  .strictObject({
    title: Title.default(''),
    content: Content,
    pinned: z.boolean().default(false),
    scheduled_at: IsoDate.nullable().default(null),
    attachments: Attachments.default([]),
  })
  .meta({ id: 'ForumRecordReplace' });
export type ForumRecordReplace = z.input<typeof ForumRecordReplace>;

/** `PATCH Forum/Record/{id}/`: some or all of the fields of PUT. */
export const ForumRecordUpdate = z
  .strictObject({
    title: Title.optional(),
    content: Content.optional(),
    pinned: z.boolean().optional(),
    scheduled_at: IsoDate.nullable().optional(),
    attachments: Attachments.optional(),
  })
  .meta({ id: 'ForumRecordUpdate' });
export type ForumRecordUpdate = z.input<typeof ForumRecordUpdate>;

/** `PUT Forum/Record/{id}/announcement/`: make a topic an announcement, optionally pinned or scheduled. */
export const ForumAnnouncementRequest = z
  .strictObject({
    pinned: z.boolean().optional(),
    scheduled_at: IsoDate.nullable().optional(),
  })
  .meta({ id: 'ForumAnnouncementRequest' });
export type ForumAnnouncementRequest = z.input<typeof ForumAnnouncementRequest>;

export const FORUM_ORDERINGS = [
  '-created_at',
  'created_at',
  '-last_activity_at',
  '-upvotes',
  '-updated_at',
] as const;
export const ForumOrdering = z.enum(FORUM_ORDERINGS);
export type ForumOrdering = z.infer<typeof ForumOrdering>;

/**
 * `GET Forum/Record/`: the topics of a course, pinned first, then by `ordering`. `full_text_search`
 * finds every word (English words by prefix, Japanese by its characters in sequence) in the title or
 * content. Deep pages: pass the previous page's `next_cursor` as `cursor` (ordering -created_at), so
 * page 2,000 costs what page 1 costs; `offset` still works but costs more the deeper it goes.
 */
export const ForumRecordListQuery = PageQuery.extend({
  course: Id,
  full_text_search: str().trim().normalize('NFC').max(MAX_FORUM_SEARCH).optional(),
  is_announcement: BoolQuery.optional(),
  ordering: ForumOrdering.default('-created_at'),
  pinned_only: BoolQuery.optional(),
  unread_only: BoolQuery.optional(),
  /** Topics last changed by this user. */
  updated_by: Id.optional(),
  /** Topics written by this user. */
  user_id: Id.optional(),
  cursor: str().max(200).optional(),
});
export type ForumRecordListQuery = z.input<typeof ForumRecordListQuery>;

/**
 * `GET Forum/Record/announcements/`: the course's announcements. `scheduled_ones=true` lists the ones
 * still waiting for their time (editors of the course and staff only; students get 403).
 */
export const ForumAnnouncementListQuery = PageQuery.extend({
  course: Id,
  full_text_search: str().trim().normalize('NFC').max(MAX_FORUM_SEARCH).optional(),
  ordering: ForumOrdering.default('-created_at'),
  pinned_only: BoolQuery.optional(),
  scheduled_ones: BoolQuery.optional(),
  unread_only: BoolQuery.optional(),
  cursor: str().max(200).optional(),
});
export type ForumAnnouncementListQuery = z.input<typeof ForumAnnouncementListQuery>;

export const ForumRecordList = paginated(ForumRecord)
  .extend({
    /** False only for a search with more than MAX_FORUM_SEARCH_COUNT matches. */
    count_exact: z.boolean(),
    next_cursor: z.string().nullable(),
    /** Unread topics of the course for the caller (what the side rail and the Unread tab show). */
    unread_count: z.number().int(),
  })
  .meta({ id: 'ForumRecordList' });
export type ForumRecordList = z.infer<typeof ForumRecordList>;

export const FORUM_COMMENT_ORDERINGS = ['created_at', '-created_at', '-upvotes'] as const;

/** `GET Forum/Comment/`: the comments of one topic, oldest first by default. */
export const ForumCommentListQuery = PageQuery.extend({
  parent_record: Id,
  ordering: z.enum(FORUM_COMMENT_ORDERINGS).default('created_at'),
  search: str().trim().normalize('NFC').max(MAX_FORUM_SEARCH).optional(),
});
export type ForumCommentListQuery = z.input<typeof ForumCommentListQuery>;
export const ForumCommentList = paginated(ForumRecord).meta({ id: 'ForumCommentList' });
export type ForumCommentList = z.infer<typeof ForumCommentList>;

/** `PUT` / `DELETE Forum/Record/{id}/upvote/`: idempotent; the answer is the state after. */
export const ForumUpvoteState = z
  .object({ id: z.number().int(), upvotes: z.number().int(), upvoted: z.boolean() })
  .meta({ id: 'ForumUpvoteState' });
export type ForumUpvoteState = z.infer<typeof ForumUpvoteState>;

/** `GET Forum/ForumUpvoteUsers/{forum_id}/`: who upvoted, newest first, at most MAX_UPVOTERS_LISTED. */
export const ForumUpvoteUsers = z
  .object({ count: z.number().int(), results: z.array(ForumAuthor) })
  .meta({ id: 'ForumUpvoteUsers' });
export type ForumUpvoteUsers = z.infer<typeof ForumUpvoteUsers>;

/** `PUT Forum/ForumUserStatus/{forum_id}/`: mark a topic read or unread for the caller. */
export const ForumUserStatusUpdate = z
  .strictObject({ is_read: z.boolean() })
  .meta({ id: 'ForumUserStatusUpdate' });
export type ForumUserStatusUpdate = z.infer<typeof ForumUserStatusUpdate>;
export const ForumUserStatus = z
  .object({ id: z.number().int(), is_read: z.boolean(), unread_count: z.number().int() })
  .meta({ id: 'ForumUserStatus' });
export type ForumUserStatus = z.infer<typeof ForumUserStatus>;

/** `GET Forum/ForumSignedURL/?file=ID`: a short-lived URL of an attachment, for members of its course. */
export const ForumSignedUrlQuery = z.object({ file: Id });
export const ForumSignedUrl = z
  .object({ url: z.string(), expires_at: z.iso.datetime() })
  .meta({ id: 'ForumSignedUrl' });
export type ForumSignedUrl = z.infer<typeof ForumSignedUrl>;

/** `GET Forum/Templates/`: starting points for a new post, in the caller's language. */
export const ForumTemplatesQuery = z.object({
  course: Id,
  lang: z.enum(['ja', 'en-US']).optional(),
});
export const ForumTemplate = z
  .object({
    id: z.string(),
    name: z.string(),
    title: z.string(),
    content: z.string(),
    /** Offered when writing an announcement (editors), else when writing a discussion. */
    for_announcement: z.boolean(),
  })
  .meta({ id: 'ForumTemplate' });
export type ForumTemplate = z.infer<typeof ForumTemplate>;
export const ForumTemplateList = z.array(ForumTemplate);

/** `POST Forum/scheduled-announcements/finalize`: publishes every announcement whose time has come. */
export const ForumFinalizeResult = z
  .object({ published: z.array(z.number().int()) })
  .meta({ id: 'ForumFinalizeResult' });
export type ForumFinalizeResult = z.infer<typeof ForumFinalizeResult>;

export const ForumIdParams = z.object({ id: Id });
export const ForumForumIdParams = z.object({ forum_id: Id });
