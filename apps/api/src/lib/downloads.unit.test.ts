import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

  /** The name a browser saves under: the `filename*` value, decoded. */
  const savedAs = (header: string) => decodeURIComponent(/filename\*=UTF-8''([^;]*)$/.exec(header)![1]!);

  it.each([
    ['a Japanese name', '資料.pdf', '__.pdf', '%E8%B3%87%E6%96%99.pdf'],
    ['spaces and digits', '第1回 課題.py', '_1____.py', '%E7%AC%AC1%E5%9B%9E%20%E8%AA%B2%E9%A1%8C.py'],
    ['quotes and backslashes', 'a "b" \\c.txt', 'a__b___c.txt', 'a%20%22b%22%20%5Cc.txt'],
    ['a percent sign', '100% done.csv', '100__done.csv', '100%25%20done.csv'],
    ['an emoji', 'party 🎉.txt', 'party__.txt', 'party%20%F0%9F%8E%89.txt'],
    ['semicolons and equals', 'x;filename=y.txt', 'x_filename_y.txt', 'x%3Bfilename%3Dy.txt'],
  ])('names %s exactly, with a fallback that stays one quoted string', (_case, name, fallback, encoded) => {
    const header = contentDisposition(name);
    expect(header).toBe(`attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`);
    expect(savedAs(header)).toBe(name);
  });

  it('sends names in NFC, never throws on half a character, and makes inline dispositions', () => {
    expect(contentDisposition('か\u3099.txt')).toBe(contentDisposition('が.txt'));
    expect(savedAs(contentDisposition('か\u3099.txt'))).toBe('が.txt');
    // A name cut in the middle of a surrogate pair: sent with U+FFFD rather than failing the download.
    expect(savedAs(contentDisposition('a\uD83C.txt'))).toBe('a\uFFFD.txt');
    expect(contentDisposition('calendar.ics', 'inline')).toBe(
      `inline; filename="calendar.ics"; filename*=UTF-8''calendar.ics`,
    );
    expect(contentDisposition(null, 'inline')).toBe('inline');
    expect(contentDisposition('')).toBe(`attachment; filename="download"; filename*=UTF-8''`);
  });

  it('is the only place that writes a Content-Disposition', () => {
    const src = path.resolve(import.meta.dirname, '..');
    const sources = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('testing.ts'))
      .filter((file) => path.resolve(src, file) !== path.resolve(import.meta.dirname, 'downloads.ts'));
    const offenders = sources.filter((file) => {
      const code = readFileSync(path.resolve(src, file), 'utf8');
      // A header written by hand: set to anything but contentDisposition(…), or a disposition literal.
      return (
        /['"`]content-disposition['"`]\s*[:,]\s*(?!\s|contentDisposition\()/i.test(code) ||
        /['"`](attachment|inline);/i.test(code)
      );
    });
    expect(offenders).toEqual([]);
  });
});
