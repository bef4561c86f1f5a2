import { describe, expect, it } from 'vitest';
import {
  contentDisposition,
  contentTypeOf,
  downloadHeaders,
  safeContentType,
  signDownload,
  verifyDownload,
  type DownloadRef,
} from './downloads.ts';

const config = { JWT_SECRET: 'unit-test-secret-that-is-long-enough-0123456789', SIGNED_URL_LIFETIME: 300 };
const ref: DownloadRef = {
  kind: 'storage',
  key: 'assignments/1/abc',
  filename: 'data.csv',
  contentType: 'text/csv',
};
const tokenOf = (url: string) => url.replace(/^\/api\/Download\//, '');

describe('signed download links', () => {
  it('round-trips a reference until it expires', () => {
    const now = Date.parse('2026-04-01T00:00:00Z');
    const url = signDownload(config, ref, undefined, now);
    expect(url).toMatch(/^\/api\/Download\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyDownload(config, tokenOf(url), now + 299_000)).toEqual({ ok: true, ref });
    expect(verifyDownload(config, tokenOf(url), now + 300_000)).toMatchObject({
      ok: false,
      reason: 'expired',
    });
    const file = signDownload(config, { kind: 'submission_file', id: 9 }, 60, now);
    expect(verifyDownload(config, tokenOf(file), now)).toEqual({
      ok: true,
      ref: { kind: 'submission_file', id: 9 },
    });
  });

  it('rejects tampering, other secrets and garbage as invalid', () => {
    const token = tokenOf(signDownload(config, ref));
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ref: { ...ref, key: 'assignments/2/secret' }, exp: 9e9 }),
    ).toString('base64url');
    const invalid = [
      `${forged}.${signature}`,
      `${payload}.${signature.slice(1)}`,
      `${payload}.`,
      payload,
      '',
      '..',
      tokenOf(signDownload({ ...config, JWT_SECRET: 'another-secret-that-is-long-enough-000000' }, ref)),
    ];
    for (const bad of invalid)
      expect(verifyDownload(config, bad), bad).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('download headers', () => {
  it('labels only harmless types, everything else as bytes', () => {
    expect(safeContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(safeContentType('IMAGE/PNG')).toBe('image/png');
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/javascript',
      'text/xml',
      '',
    ]) {
      expect(safeContentType(type), type).toBe('application/octet-stream');
    }
    expect(contentTypeOf('main.py')).toBe('text/plain');
    expect(contentTypeOf('photo.JPG')).toBe('image/jpeg');
    expect(contentTypeOf('page.html')).toBe('application/octet-stream');
    expect(contentTypeOf('Makefile')).toBe('application/octet-stream');
  });

  it('always sends an attachment with the exact name in RFC 5987 form', () => {
    expect(contentDisposition("レポート (1)'s.txt")).toBe(
      `attachment; filename="______1__s.txt"; filename*=UTF-8''%E3%83%AC%E3%83%9D%E3%83%BC%E3%83%88%20%281%29%27s.txt`,
    );
    expect(downloadHeaders('a.html', 'text/html')).toMatchObject({
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="a.html"; filename*=UTF-8''a.html`,
    });
  });
});
