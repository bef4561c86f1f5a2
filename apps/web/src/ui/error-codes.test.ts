import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import enUS from '../i18n/en-US.json';
import ja from '../i18n/ja.json';

/**
 * The error codes the API gives with a situation a person must understand — a conflict, a limit, a busy
 * server, a retry to make — read from the API's source (`new HttpError(status, 'code'` and
 * `conflict(…, 'code')`). Each needs a sentence in both languages: errorMessage (errors.ts) otherwise
 * falls back to "The server had a problem", which tells a student whose submit was refused for load
 * nothing about whether it counted.
 */
const API_SOURCE = path.resolve(import.meta.dirname, '../../../api/src');

/** Codes errorMessage answers well by status alone: sign in, not allowed, not found, wait N seconds. */
const BY_STATUS = new Set([
  'not_authenticated',
  'permission_denied',
  'not_found',
  'throttled',
  'unsupported_media_type',
]);

function apiCodes(): Map<string, number> {
  const codes = new Map<string, number>();
  const files = readdirSync(API_SOURCE, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  for (const file of files) {
    const text = readFileSync(path.join(API_SOURCE, file), 'utf8');
    for (const m of text.matchAll(/new HttpError\(\s*(\d+),\s*'([a-z_]+)'/g)) codes.set(m[2]!, Number(m[1]));
    for (const m of text.matchAll(/\bconflict\([^;]*?,\s*'([a-z_]+)'/gs)) codes.set(m[1]!, 409);
  }
  return codes;
}

describe('API error codes', () => {
  const codes = apiCodes();

  it('finds the codes in the API source', () => {
    // The scan itself must work: these are known to exist.
    expect(codes.get('overloaded')).toBe(503);
    expect(codes.get('idempotency_key_reused')).toBe(422);
    expect(codes.get('closed')).toBe(403);
  });

  it('has a sentence in both languages for every code a person must understand', () => {
    const needed = [...codes.keys()].filter((code) => !BY_STATUS.has(code));
    const missingEn = needed.filter((code) => !(code in enUS.errors.codes));
    const missingJa = needed.filter((code) => !(code in ja.errors.codes));
    expect({ en: missingEn, ja: missingJa }).toEqual({ en: [], ja: [] });
  });
});
