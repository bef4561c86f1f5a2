import { z } from 'zod';
import { Id, PageQuery, paginated, str } from './common.ts';

/*
 * Personal data on request (issue 41, docs/privacy.md): a person downloads what Kadai holds about them,
 * and staff erase a person — their personal data removed or replaced by a pseudonym.
 */

/**
 * `pending`: waiting for the background job; `running`: being gathered; `ready`: the zip can be
 * downloaded until `expires_at`; `failed`: the job gave up (ask again); `expired`: the zip is deleted.
 */
export const DATA_EXPORT_STATUSES = ['pending', 'running', 'ready', 'failed', 'expired'] as const;
export const DataExportStatus = z.enum(DATA_EXPORT_STATUSES);
export type DataExportStatus = z.infer<typeof DataExportStatus>;

/** How many of a person's exports the list answers: the newest. */
export const MAX_DATA_EXPORTS_LISTED = 10;

export const DataExport = z
  .object({
    id: z.number().int(),
    status: DataExportStatus,
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
    /** When the zip is deleted (ready exports only). */
    expires_at: z.iso.datetime().nullable(),
    /** The zip's size in bytes (ready exports only). */
    size: z.number().int().nullable(),
    /**
     * A short-lived signed link to the zip (`/api/Download/…`), made afresh for the signed-in owner on
     * every read of one export; null in lists and unless the export is ready.
     */
    download_url: z.string().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof DataExport>;

export const DataExportList = z.object({ results: z.array(DataExport) }).meta({ id: 'DataExportList' });
export type DataExportList = z.infer<typeof DataExportList>;

/** What a staff member types to confirm an erasure: the person's e-mail address (case does not matter). */
export const ErasureRequest = z.object({ confirm_email: str().trim().min(1).max(254) });
export type ErasureRequest = z.infer<typeof ErasureRequest>;

/** What happens to free text the person wrote in the forum (ERASURE_FORUM_TEXT). */
export const ERASURE_FORUM_TEXT = ['replace', 'keep'] as const;
export const ErasureForumText = z.enum(ERASURE_FORUM_TEXT);
export type ErasureForumText = z.infer<typeof ErasureForumText>;

/**
 * The audit entry an erasure leaves: who erased whom (by id and pseudonym, never the erased data),
 * when, with which settings, and how many rows of each table were deleted or changed.
 */
export const Erasure = z
  .object({
    id: z.number().int(),
    user_id: z.number().int().nullable(),
    pseudonym: z.string(),
    actor_id: z.number().int().nullable(),
    actor_email: z.string(),
    erased_at: z.iso.datetime(),
    kept_grades: z.boolean(),
    forum_text: ErasureForumText,
    /** table → rows deleted or changed. */
    rows: z.record(z.string(), z.number().int()),
    /** Stored files to delete after the commit, and how many of them could not be. */
    files: z.number().int(),
    files_failed: z.number().int(),
  })
  .meta({ id: 'Erasure' });
export type Erasure = z.infer<typeof Erasure>;

export const ErasureList = paginated(Erasure).meta({ id: 'ErasureList' });
export type ErasureList = z.infer<typeof ErasureList>;

export const ErasureListQuery = PageQuery;
export type ErasureListQuery = z.infer<typeof ErasureListQuery>;

export const ErasureParams = z.object({ id: Id });
