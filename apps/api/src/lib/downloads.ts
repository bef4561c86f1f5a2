import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.ts';

/**
 * Short-lived signed download links: `/api/Download/<token>`. The token is the credential (the route is
 * public), so a link works in an `<a download>` or a new tab, where no bearer header is sent. It is
 * `base64url(JSON payload) "." base64url(HMAC-SHA256)`, keyed by a key derived from JWT_SECRET under a
 * label of its own, so a download token can never pass for an access token or the other way round.
 */
export type DownloadRef =
  | { kind: 'storage'; key: string; filename: string; contentType: string }
  | { kind: 'submission_file'; id: number }
  /** A lecture video, streamed inline with ranges by `/api/VideoFile/<token>` only. */
  | { kind: 'video_file'; key: string; contentType: 'video/mp4' | 'video/webm' | 'video/ogg' };

const DownloadPayload = z.object({
  ref: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('storage'),
      key: z.string(),
      filename: z.string(),
      contentType: z.string(),
    }),
    z.object({ kind: z.literal('submission_file'), id: z.number().int() }),
    z.object({
      kind: z.literal('video_file'),
      key: z.string(),
      contentType: z.enum(['video/mp4', 'video/webm', 'video/ogg']),
    }),
  ]),
  /** Expiry, Unix seconds. */
  exp: z.number().int(),
});

export const DOWNLOAD_PATH = '/api/Download/';
const LABEL = 'kadai/download-link/v1';

const keys = new Map<string, Buffer>();
function signingKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update(LABEL).digest();
    keys.set(secret, key);
  }
  return key;
}

const mac = (secret: string, payload: string) =>
  createHmac('sha256', signingKey(secret)).update(payload).digest();

/** A path (`/api/Download/<token>`) that downloads `ref` until `ttlSeconds` from now. */
export function signDownload(
  config: Pick<Config, 'JWT_SECRET' | 'SIGNED_URL_LIFETIME'>,
  ref: DownloadRef,
  ttlSeconds: number = config.SIGNED_URL_LIFETIME,
  now: number = Date.now(),
): string {
  const payload = Buffer.from(
    JSON.stringify({ ref, exp: Math.floor(now / 1000) + ttlSeconds }),
    'utf8',
  ).toString('base64url');
  return `${DOWNLOAD_PATH}${payload}.${mac(config.JWT_SECRET, payload).toString('base64url')}`;
}

export type DownloadCheck =
  | { ok: true; ref: DownloadRef }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'expired'; expiredAt: Date };

/** Checks a token's signature, then its expiry. Only a genuine token can be reported as expired. */
export function verifyDownload(
  config: Pick<Config, 'JWT_SECRET'>,
  token: string,
  now: number = Date.now(),
): DownloadCheck {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const payload = match[1]!;
  const signature = match[2]!;
  const expected = mac(config.JWT_SECRET, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'invalid' };
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const parsed = DownloadPayload.safeParse(decoded);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  if (parsed.data.exp * 1000 <= now) {
    return { ok: false, reason: 'expired', expiredAt: new Date(parsed.data.exp * 1000) };
  }
  return { ok: true, ref: parsed.data.ref };
}

/* ─── What a download is sent as ─────────────────────────────────────────────────────────────── */

/**
 * Content types a download may be labelled with. Anything else (HTML, SVG, XML, JavaScript: whatever a
 * browser would run on our origin) goes out as application/octet-stream.
 */
const SAFE_CONTENT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/markdown',
  'application/json',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/wav',
  'video/mp4',
]);

/** The content type to send: the allowed type (text in UTF-8), or application/octet-stream. */
export function safeContentType(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!SAFE_CONTENT_TYPES.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

const TYPES_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.py': 'text/plain',
  '.in': 'text/plain',
  '.out': 'text/plain',
  '.dat': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
};

/**
 * The content type of a file, decided by the server from its name (what a browser claims is not
 * trusted); unknown extensions are application/octet-stream.
 */
export function contentTypeOf(filename: string): string {
  return TYPES_BY_EXTENSION[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/** Bytes left as they are in `filename*`: RFC 3986's unreserved characters, all RFC 8187 attr-chars. */
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/** `value` as RFC 8187 (RFC 5987) ext-value characters: its UTF-8 bytes, percent-encoded but for UNRESERVED. */
function percentEncodeUtf8(value: string): string {
  let encoded = '';
  // Buffer.from encodes a lone surrogate (a name cut mid-character) as U+FFFD instead of throwing.
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/**
 * The one `Content-Disposition` of the API (RFC 6266), for every file it sends: stored downloads,
 * CSV and notebook exports, bundles, the calendar feed, videos. `filename*=UTF-8''…` carries the name
 * exactly (NFC, percent-encoded UTF-8), which every current browser saves the file under; `filename`
 * is an ASCII fallback for older clients, where every character but letters, digits, `.`, `_` and `-`
 * becomes `_` (so no quote, backslash or `%` can end or change the quoted string). `null`: no name.
 */
export function contentDisposition(
  filename: string | null,
  type: 'attachment' | 'inline' = 'attachment',
): string {
  if (filename === null) return type;
  const name = filename.normalize('NFC');
  const fallback = name.replace(/[^A-Za-z0-9._-]/gu, '_') || 'download';
  return `${type}; filename="${fallback}"; filename*=UTF-8''${percentEncodeUtf8(name)}`;
}

/**
 * Headers of a file the API makes for the caller and sends at once (a CSV, a notebook): an attachment
 * under `contentDisposition`, never sniffed, never cached by others.
 */
export function generatedFileHeaders(contentDisposition: string): Record<string, string> {
  return {
    'content-disposition': contentDisposition,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** Headers of every download: never rendered on our origin, never sniffed, never cached by others. */
export function downloadHeaders(filename: string, contentType: string): Record<string, string> {
  return {
    'content-type': safeContentType(contentType),
    'content-disposition': contentDisposition(filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}
