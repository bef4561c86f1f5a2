import type { Readable } from 'node:stream';
import type { AppContext } from '../../lib/context.ts';
import { contentTypeOf, verifyDownload } from '../../lib/downloads.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { StorageNotFoundError } from '../../lib/storage.ts';
import { findSubmissionFileContent } from './downloads.repo.ts';

const expired = () =>
  new HttpError(410, 'link_expired', 'This download link has expired. Reload the page to get a new one.');

/** What a download link leads to: the file's name and type, and its bytes (whole, or streamed from storage). */
export interface Download {
  filename: string;
  contentType: string;
  content: Buffer | Readable;
}

/**
 * The file behind a download token. The token is the credential (signed, short-lived, made by the
 * services that list files for callers allowed to see them): 410 when it has expired, 404 when it is not
 * genuine or the file is gone, and 404 for a video's token, which streams through /api/VideoFile/ only.
 */
export async function openDownload(ctx: AppContext, token: string): Promise<Download> {
  const check = verifyDownload(ctx.config, token);
  if (!check.ok) throw check.reason === 'expired' ? expired() : notFound();
  const { ref } = check;
  if (ref.kind === 'video_file') throw notFound();
  if (ref.kind === 'submission_file') {
    const file = await findSubmissionFileContent(ctx.db, ref.id);
    if (!file) throw notFound();
    return { filename: file.filename, contentType: contentTypeOf(file.filename), content: file.content };
  }
  try {
    return { filename: ref.filename, contentType: ref.contentType, content: await ctx.storage.get(ref.key) };
  } catch (error) {
    if (error instanceof StorageNotFoundError) throw notFound();
    throw error;
  }
}
