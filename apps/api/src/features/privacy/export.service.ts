import { MAX_DATA_EXPORTS_LISTED, type DataExport, type DataExportList } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { signDownload } from '../../lib/downloads.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { newStorageKey, StorageNotFoundError } from '../../lib/storage.ts';
import { writeZip } from '../../lib/zip.ts';
import { queueEmails, writeEmails } from '../mail/outbox.ts';
import { findUserById } from '../users/users.service.ts';
import {
  claimExport,
  expireExports,
  findExport,
  insertExport,
  listExports,
  listStalledExports,
  markExportFailed,
  markExportReady,
  listExportKeys,
  setExportKey,
  type DataExportRow,
} from './privacy.repo.ts';
import {
  listForumUploads,
  readEvaluations,
  readProfile,
  readQuizzes,
  readReviewDetails,
  readSubmissionFileList,
  readSubmissionFiles,
  readSubmissions,
  readTableForExport,
} from './export-read.repo.ts';
import { EXPORT_RULES } from './tables.ts';

/*
 * A person's copy of their data (docs/privacy.md, "Export"): asked for by them, gathered by a
 * background job into a zip in the file store, announced by e-mail, downloaded from their profile
 * page through a short-lived signed link, deleted after DATA_EXPORT_LIFETIME.
 */

export const DATA_EXPORT_QUEUE = 'privacy-export';
/** Where the zips are kept in the file store: `exports/<user id>/<random>`. */
export const EXPORTS_PREFIX = 'exports';
export const PRIVACY_HOUSEKEEPING_QUEUE = 'privacy-housekeeping';
/** Runs of one export before it is `failed`. */
export const MAX_EXPORT_ATTEMPTS = 3;
/** A run that started this long ago and is still `running` died with its process. */
const STALE_RUN_MS = 30 * 60 * 1000;
/** A pending export this old whose job never came lost it (a crash between commit and queueing). */
const LOST_AFTER_MS = 5 * 60 * 1000;
const SUBMISSION_FILE_BATCH = 50;
/** Where the profile page shows the export: the e-mail links there, never to the file. */
export const EXPORT_PAGE_PATH = '/profile#my-data';

/** `kadai-data-2026-11-20.zip`: the day it was asked for (UTC), as the page names it too. */
const exportFilename = (createdAt: string) => `kadai-data-${createdAt.slice(0, 10)}.zip`;

function toDataExport(row: DataExportRow, downloadUrl: string | null, now = new Date()): DataExport {
  const isLive = row.status === 'ready' && row.expiresAt !== null && row.expiresAt > now;
  // A ready export past its time is expired even before the hourly job deletes its zip.
  const status = row.status === 'ready' && !isLive ? 'expired' : row.status;
  return {
    id: row.id,
    status,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    expires_at: isLive ? (row.expiresAt?.toISOString() ?? null) : null,
    size: isLive ? row.size : null,
    download_url: isLive ? downloadUrl : null,
  };
}

async function queueExport(ctx: AppContext, id: number): Promise<void> {
  try {
    await ctx.jobs.send(
      DATA_EXPORT_QUEUE,
      { id },
      {
        singletonKey: `data-export:${id}`,
        retryLimit: MAX_EXPORT_ATTEMPTS - 1,
        retryDelay: 60,
        retryBackoff: true,
      },
    );
  } catch (error) {
    // The housekeeping job finds it still pending and queues it again.
    ctx.log.warn({ err: error, exportId: id }, 'privacy: could not queue a data export; housekeeping will');
  }
}

/** POST: a new export of the caller's data; 409 while one of theirs is pending or running. */
export async function requestExport(ctx: AppContext, actor: Actor): Promise<DataExport> {
  const row = await insertExport(ctx.db, actor.userId);
  if (!row) {
    throw conflict(
      'Your data is already being prepared; you will get an e-mail when it is ready.',
      'export_in_progress',
    );
  }
  await queueExport(ctx, row.id);
  return toDataExport(row, null);
}

/** The caller's own exports, newest first (no download links: reading one export makes its link). */
export async function listOwnExports(ctx: AppContext, actor: Actor): Promise<DataExportList> {
  const rows = await listExports(ctx.db, actor.userId, MAX_DATA_EXPORTS_LISTED);
  return { results: rows.map((row) => toDataExport(row, null)) };
}

/** One export of the caller's, with a fresh short-lived download link when it is ready; 404 for others'. */
export async function getOwnExport(ctx: AppContext, actor: Actor, id: number): Promise<DataExport> {
  const row = await findExport(ctx.db, id);
  if (!row || row.userId !== actor.userId) throw notFound();
  const link =
    row.status === 'ready' && row.storageKey
      ? signDownload(ctx.config, {
          kind: 'storage',
          key: row.storageKey,
          filename: exportFilename(row.createdAt.toISOString()),
          contentType: 'application/zip',
        })
      : null;
  return toDataExport(row, link);
}

/* ─── The job ────────────────────────────────────────────────────────────────────────────────── */

const README = `Kadai: your personal data / 個人データ

data/profile.json        your account (no password) / アカウント（パスワードを除く）
data/<area>/<table>.json the rows that name you, table by table / あなたに関する記録（表ごと）
files/submissions/<submission id>/<file>  the files you submitted / 提出したファイル
files/forum/<attachment id>/<file>        the files you attached to forum posts / 掲示板に添付したファイル

Rows about you are whole; rows where you only acted on someone else's (you created an assignment,
granted an extension) carry what you did, not their data. Hidden test results, unreleased reviews and
quiz scores not yet shown are left out, as in the app. docs/privacy.md describes every file.
あなたが他の人の記録に対して行った操作は、その人のデータを除いて記録しています。非公開のテスト結果、
公開前の採点、まだ表示されていない小テストの得点は、アプリと同じく含まれません。
`;

/** A file name as one safe path part of the zip (names are the person's own, but come from uploads). */
function safePart(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced here
  const cleaned = name.replace(/[\\/:\u0000-\u001f\u007f]/g, '_').slice(0, 200);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/** Everything of the zip: path → bytes. */
export async function gatherPersonalData(ctx: AppContext, userId: number): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  files.set('README.txt', Buffer.from(README, 'utf8'));
  files.set('data/profile.json', json(await readProfile(ctx.db, userId)));
  for (const [table, rule] of Object.entries(EXPORT_RULES)) {
    if (rule.custom !== undefined) continue;
    files.set(`data/${rule.file}.json`, json(await readTableForExport(ctx.db, table, rule, userId)));
  }

  files.set(`data/${EXPORT_RULES.submissions!.file}.json`, json(await readSubmissions(ctx.db, userId)));
  files.set('data/submissions/evaluations.json', json(await readEvaluations(ctx.db, userId)));
  files.set('data/submissions/files.json', json(await readSubmissionFileList(ctx.db, userId)));
  const reviews = await readReviewDetails(ctx.db, userId);
  files.set('data/submissions/review-rubric-items.json', json(reviews.items));
  files.set('data/submissions/review-comments.json', json(reviews.comments));
  for (let after = 0; ;) {
    const batch = await readSubmissionFiles(ctx.db, userId, after, SUBMISSION_FILE_BATCH);
    for (const file of batch) {
      files.set(`files/submissions/${file.submissionId}/${safePart(file.filename)}`, file.content);
    }
    if (batch.length < SUBMISSION_FILE_BATCH) break;
    after = batch[batch.length - 1]!.id;
  }

  const quizzes = await readQuizzes(ctx.db, userId);
  files.set(`data/${EXPORT_RULES.quiz_submissions!.file}.json`, json(quizzes.submissions));
  files.set('data/quizzes/answers.json', json(quizzes.answers));

  const forumRule = EXPORT_RULES.forum_files!;
  files.set(
    `data/${forumRule.file}.json`,
    json(await readTableForExport(ctx.db, 'forum_files', forumRule, userId)),
  );
  for (const upload of await listForumUploads(ctx.db, userId)) {
    try {
      files.set(
        `files/forum/${upload.id}/${safePart(upload.filename)}`,
        await ctx.storage.read(upload.storageKey),
      );
    } catch (error) {
      // A file whose bytes are gone (a store restored without it) leaves its row in the list only.
      if (!(error instanceof StorageNotFoundError)) throw error;
    }
  }
  return files;
}

export type ExportOutcome = 'ready' | 'failed' | 'retry' | 'skipped';

/**
 * One run of one export. A failed run before the last puts it back to pending and throws, so pg-boss
 * runs the job again; the last failed run marks it `failed`. The zip is stored before the row says
 * ready, and the e-mail is written in the transaction that says so.
 */
export async function runExport(ctx: AppContext, id: number, now = Date.now()): Promise<ExportOutcome> {
  const claimed = await claimExport(ctx.db, id, new Date(now - STALE_RUN_MS));
  if (!claimed) return 'skipped';
  let storageKey: string | null = null;
  try {
    const zip = writeZip(await gatherPersonalData(ctx, claimed.userId));
    const key = newStorageKey(`${EXPORTS_PREFIX}/${claimed.userId}`);
    if (!(await setExportKey(ctx.db, id, key))) return 'skipped';
    storageKey = key;
    await ctx.storage.put(key, zip, 'application/zip');
    const emailIds = await ctx.db.transaction(async (tx) => {
      const user = await findUserById(tx, claimed.userId);
      if (!user || !(await markExportReady(tx, id, key, zip.length, ctx.config.DATA_EXPORT_LIFETIME))) {
        return null;
      }
      return writeEmails(tx, ctx.config, [
        {
          kind: 'data_export',
          to: user,
          link: `${ctx.config.publicUrl}${EXPORT_PAGE_PATH}`,
          lifetimeSeconds: ctx.config.DATA_EXPORT_LIFETIME,
        },
      ]);
    });
    if (emailIds === null) {
      await ctx.storage.delete(key);
      return 'skipped';
    }
    await queueEmails(ctx, emailIds);
    ctx.log.info({ exportId: id, bytes: zip.length }, 'privacy: data export ready');
    return 'ready';
  } catch (error) {
    if (storageKey) await ctx.storage.delete(storageKey).catch(() => undefined);
    const isFinal = claimed.attempts >= MAX_EXPORT_ATTEMPTS;
    const message = error instanceof Error ? error.message : String(error);
    await markExportFailed(ctx.db, id, message, isFinal);
    ctx.log.warn({ err: error, exportId: id, attempt: claimed.attempts }, 'privacy: data export failed');
    if (isFinal) return 'failed';
    throw error;
  }
}

/**
 * Deletes the zips of exports past their time and zips no row names (an account deleted, a run that
 * died after storing), and queues exports whose job was lost.
 */
export async function housekeepExports(
  ctx: AppContext,
  now = Date.now(),
): Promise<{ expired: number; orphans: number; requeued: number }> {
  let expired = 0;
  for (;;) {
    const keys = await ctx.db.transaction((tx) => expireExports(tx, 100));
    for (const key of keys) {
      await ctx.storage.delete(key).catch((error: unknown) => {
        ctx.log.warn({ err: error, key }, 'privacy: could not delete an expired data export');
      });
    }
    expired += keys.length;
    if (keys.length < 100) break;
  }
  // The store is listed before the rows are read: a zip stored after the listing is not in it, and
  // one stored before it had its row's key set before that (setExportKey), so no live zip is taken.
  const stored = await ctx.storage.list(EXPORTS_PREFIX);
  const named = await listExportKeys(ctx.db);
  let orphans = 0;
  for (const key of stored.filter((k) => !named.has(k))) {
    await ctx.storage.delete(key).then(
      () => orphans++,
      (error: unknown) => ctx.log.warn({ err: error, key }, 'privacy: could not delete an orphaned export'),
    );
  }
  const stalled = await listStalledExports(
    ctx.db,
    new Date(now - LOST_AFTER_MS),
    new Date(now - STALE_RUN_MS),
    100,
  );
  for (const id of stalled) await queueExport(ctx, id);
  return { expired, orphans, requeued: stalled.length };
}

/**
 * Started once per API process from main.ts: every instance runs exports; housekeeping runs hourly,
 * once across all instances. `onRun` lets tests see each run.
 */
export async function startPrivacyJobs(
  ctx: AppContext,
  options: { onRun?: (id: number, outcome: ExportOutcome) => void } = {},
): Promise<void> {
  await ctx.jobs.work<{ id: number }>(DATA_EXPORT_QUEUE, async (jobs) => {
    for (const job of jobs) {
      let outcome: ExportOutcome = 'retry';
      try {
        // A failed run before the last throws: pg-boss runs the job again after its backoff.
        outcome = await runExport(ctx, job.data.id);
      } finally {
        options.onRun?.(job.data.id, outcome);
      }
    }
  });
  await ctx.jobs.schedule(PRIVACY_HOUSEKEEPING_QUEUE, '17 * * * *');
  await ctx.jobs.work(PRIVACY_HOUSEKEEPING_QUEUE, async () => {
    const done = await housekeepExports(ctx);
    if (done.expired > 0 || done.orphans > 0 || done.requeued > 0)
      ctx.log.info(done, 'privacy: housekeeping');
  });
}
