import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_ENTRIES,
  MAX_BUNDLE_UNCOMPRESSED_BYTES,
  MAX_SCRIPT_TEXT,
  MAX_TEST_CASES,
} from '@kadai/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { bundleFootprint, importBundle, zipOf } from './testing.ts';

/** Bundles the import refuses (docs/assignments.md, "Bundles"); bundles.test.ts has the round trip. */

const meta = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ format_version: 1, title: 'Imported', ...fields });
const test = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'Adds',
    kind: 'io',
    points: 1,
    visibility: 'visible',
    time_limit_ms: 2000,
    memory_limit_mb: 256,
    comparison: 'whitespace',
    tolerance: 0.000001,
    test_file_name: 'test_main.py',
    ...fields,
  });

/** Sets the uncompressed size an entry declares, in its local header and the central directory. */
function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const patched = Buffer.from(zip);
  const end = patched.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = patched.readUInt32LE(end + 16);
  for (let i = 0; i < patched.readUInt16LE(end + 10); i++) {
    const nameLength = patched.readUInt16LE(at + 28);
    if (patched.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      patched.writeUInt32LE(size, at + 24);
      patched.writeUInt32LE(size, patched.readUInt32LE(at + 42) + 22);
    }
    at += 46 + nameLength + patched.readUInt16LE(at + 30) + patched.readUInt16LE(at + 32);
  }
  return patched;
}

describe('a bad bundle answers 400 invalid_bundle naming the entry, and creates nothing', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof createCourseWorld>>;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createCourseWorld(t);
  });
  afterAll(() => t.close());

  const footprint = () => bundleFootprint(t);

  const tooManyTests = Object.fromEntries(
    Array.from({ length: MAX_TEST_CASES + 1 }, (_, i) => [
      `tests/${String(i + 1).padStart(3, '0')}-t/test.json`,
      test(),
    ]),
  );
  const tooManyFiles = Object.fromEntries(
    Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => [`files/f${i}.txt`, 'x']),
  );
  const tooManyEntries = Object.fromEntries(
    Array.from({ length: MAX_BUNDLE_ENTRIES + 1 }, (_, i) => [`files/f${i}.txt`, 'x']),
  );
  // With assignment.json, one more than the limit: the last entry is junk, which counts like any other.
  const tooManyJunkEntries = Object.fromEntries(
    Array.from({ length: MAX_BUNDLE_ENTRIES }, (_, i) => [`__MACOSX/._f${i}`, 'x']),
  );
  const tenMegabytes = new Uint8Array(MAX_ATTACHMENT_BYTES);
  const cases: { name: string; zip: () => Buffer; detail: string }[] = [
    {
      name: 'a parent path',
      zip: () => zipOf({ 'assignment.json': meta(), '../x': 'x' }),
      detail: '"../x"',
    },
    {
      name: 'a nested parent path',
      zip: () => zipOf({ 'assignment.json': meta(), 'files/../../x': 'x' }),
      detail: 'files/../../x',
    },
    {
      name: 'an absolute path',
      zip: () => zipOf({ 'assignment.json': meta(), '/x': 'x' }),
      detail: '"/x"',
    },
    { name: 'a backslash', zip: () => zipOf({ 'assignment.json': meta(), 'a\\b': 'x' }), detail: 'a\\b' },
    {
      name: 'an unknown folder',
      zip: () => zipOf({ 'assignment.json': meta(), 'docs/x': 'x' }),
      detail: 'docs/x',
    },
    {
      // A zip of a folder is read from inside it only when it is the one folder (bundle-folders.test.ts).
      name: 'two top-level folders',
      zip: () => zipOf({ 'a/assignment.json': meta(), 'b/statement.md': 'x' }),
      detail: '"a/assignment.json" is not part of the bundle format',
    },
    {
      name: 'a folder beside a file at the root',
      zip: () => zipOf({ 'a/assignment.json': meta(), 'notes.txt': 'x' }),
      detail: '"a/assignment.json" is not part of the bundle format',
    },
    {
      name: 'a zip of the tests/ folder alone',
      zip: () => zipOf({ 'tests/01-a/test.json': test() }),
      detail: 'no assignment.json',
    },
    {
      name: 'a stray file inside a zipped folder',
      zip: () => zipOf({ 'a/assignment.json': meta(), 'a/notes.txt': 'x' }),
      detail: '"notes.txt" is not part of the bundle format',
    },
    {
      // Junk is skipped only once its name has passed the same checks as any other.
      name: 'a parent path inside __MACOSX/',
      zip: () => zipOf({ 'assignment.json': meta(), '__MACOSX/../../x': 'x' }),
      detail: '__MACOSX/../../x',
    },
    {
      name: 'a .DS_Store under a name with a control character',
      zip: () => zipOf({ 'assignment.json': meta(), 'a\u0001b/.DS_Store': 'x' }),
      detail: '/.DS_Store" has a control character',
    },
    {
      name: 'a Thumbs.db under an absolute path',
      zip: () => zipOf({ 'assignment.json': meta(), '/files/Thumbs.db': 'x' }),
      detail: '"/files/Thumbs.db"',
    },
    {
      // Only a ._ file beside what it describes is the AppleDouble metadata macOS adds.
      name: 'a ._ file with nothing beside it',
      zip: () => zipOf({ 'assignment.json': meta(), '._notes.md': 'x' }),
      detail: '"._notes.md" is not part of the bundle format',
    },
    {
      name: 'too many entries, counting junk',
      zip: () => zipOf({ 'assignment.json': meta(), ...tooManyJunkEntries }),
      detail: `${MAX_BUNDLE_ENTRIES + 1} entries`,
    },
    {
      name: 'a zip bomb in junk (its declared size counts toward the total)',
      zip: () =>
        declareSize(
          zipOf({ 'assignment.json': meta(), '__MACOSX/._bomb': 'x' }),
          '__MACOSX/._bomb',
          MAX_BUNDLE_UNCOMPRESSED_BYTES,
        ),
      detail: '__MACOSX/._bomb',
    },
    {
      name: 'an unknown file',
      zip: () => zipOf({ 'assignment.json': meta(), 'notes.txt': 'x' }),
      detail: 'notes.txt',
    },
    {
      name: 'a folder in files/',
      zip: () => zipOf({ 'assignment.json': meta(), 'files/a/b.txt': 'x' }),
      detail: 'files/a/b.txt',
    },
    {
      name: 'a stray file in a test',
      zip: () =>
        zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test(), 'tests/01-a/notes.txt': 'x' }),
      detail: 'tests/01-a/notes.txt',
    },
    {
      name: 'a starter file not named after the entry file',
      zip: () => zipOf({ 'assignment.json': meta(), 'starter/other.py': 'x' }),
      detail: 'starter/other.py',
    },
    {
      name: 'a bad attachment name',
      zip: () => zipOf({ 'assignment.json': meta(), 'files/.hidden': 'x' }),
      detail: 'files/.hidden',
    },
    {
      // Entries each declaring the most an attachment may be (5 MB), one more than fits in the 50 MB cap.
      name: 'a zip bomb (declared sizes over the total)',
      zip: () => {
        const count = Math.floor(MAX_BUNDLE_UNCOMPRESSED_BYTES / MAX_ATTACHMENT_BYTES) + 1;
        const names = Array.from({ length: count }, (_, i) => `files/zero${i}.bin`);
        let zip = zipOf(Object.fromEntries(names.map((n) => [n, 'x'])));
        for (const n of names) zip = declareSize(zip, n, MAX_ATTACHMENT_BYTES);
        return zip;
      },
      detail: `files/zero${Math.floor(MAX_BUNDLE_UNCOMPRESSED_BYTES / MAX_ATTACHMENT_BYTES)}.bin`,
    },
    {
      name: 'an entry that inflates to more than its header says',
      zip: () =>
        declareSize(
          zipOf({ 'assignment.json': meta(), 'files/zero.bin': tenMegabytes }),
          'files/zero.bin',
          1000,
        ),
      detail: 'files/zero.bin',
    },
    {
      name: 'an entry over its own limit',
      zip: () =>
        zipOf({
          'assignment.json': meta(),
          'tests/01-a/test.json': test(),
          'tests/01-a/driver.py': 'x'.repeat(3 * MAX_SCRIPT_TEXT + 1),
        }),
      detail: 'tests/01-a/driver.py',
    },
    {
      name: 'a text over its character limit',
      zip: () => zipOf({ 'assignment.json': meta(), 'reference/main.py': 'x'.repeat(MAX_SCRIPT_TEXT + 1) }),
      detail: 'reference/main.py',
    },
    {
      name: 'too many test cases',
      zip: () => zipOf({ 'assignment.json': meta(), ...tooManyTests }),
      detail: `${MAX_TEST_CASES}`,
    },
    {
      name: 'too many attachments',
      zip: () => zipOf({ 'assignment.json': meta(), ...tooManyFiles }),
      detail: `${MAX_ATTACHMENTS}`,
    },
    {
      name: 'too many entries',
      zip: () => zipOf({ 'assignment.json': meta(), ...tooManyEntries }),
      detail: `${MAX_BUNDLE_ENTRIES}`,
    },
    {
      name: 'an unknown kind',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test({ kind: 'java' }) }),
      detail: 'tests/01-a/test.json: kind',
    },
    {
      name: 'a test.json out of bounds',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test({ points: 5000 }) }),
      detail: 'tests/01-a/test.json: points',
    },
    {
      name: 'a test.json with an unknown field',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test({ weight: 2 }) }),
      detail: 'tests/01-a/test.json',
    },
    {
      name: 'a script test without a check script',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test({ kind: 'script' }) }),
      detail: 'check_script',
    },
    {
      name: 'a pytest test without its module',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': test({ kind: 'pytest' }) }),
      detail: 'test_code',
    },
    {
      name: 'a test.json that is not JSON',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/test.json': '{' }),
      detail: 'tests/01-a/test.json',
    },
    {
      name: 'a test folder without test.json',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/01-a/input.txt': '1' }),
      detail: 'tests/01-a',
    },
    {
      name: 'a badly named test folder',
      zip: () => zipOf({ 'assignment.json': meta(), 'tests/first/test.json': test() }),
      detail: 'tests/first/test.json',
    },
    {
      name: 'missing assignment.json',
      zip: () => zipOf({ 'statement.md': '# Hi' }),
      detail: 'assignment.json',
    },
    {
      name: 'an assignment.json of another version',
      zip: () => zipOf({ 'assignment.json': meta({ format_version: 2 }) }),
      detail: 'assignment.json: format_version',
    },
    {
      name: 'an entry file of a forbidden extension',
      zip: () => zipOf({ 'assignment.json': meta({ entry_file: 'main.rb' }) }),
      detail: 'assignment.json: entry_file',
    },
    {
      name: 'a NUL character in a text',
      zip: () => zipOf({ 'assignment.json': meta(), 'statement.md': 'a\u0000b' }),
      detail: 'statement.md',
    },
    {
      name: 'a NUL character in a test’s input',
      zip: () =>
        zipOf({
          'assignment.json': meta(),
          'tests/01-a/test.json': test(),
          'tests/01-a/input.txt': '1\u00002',
        }),
      detail: 'tests/01-a/test.json: stdin',
    },
    {
      name: 'two attachments of one name once normalised (NFC)',
      zip: () => zipOf({ 'assignment.json': meta(), 'files/が.txt': 'a', 'files/か\u3099.txt': 'b' }),
      detail: 'the same name',
    },
    {
      name: 'text that is not UTF-8',
      zip: () => zipOf({ 'assignment.json': meta(), 'statement.md': new Uint8Array([0xff, 0xfe, 0x41]) }),
      detail: 'statement.md',
    },
    {
      name: 'a body that is not a zip',
      zip: () => Buffer.from('this is not a zip archive at all, just text'),
      detail: 'Not a .zip',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = await footprint();
      const res = await importBundle(t, w.course.id, w.tokens.editor, c.zip());
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.json.code).toBe('invalid_bundle');
      expect(String(res.json.detail)).toContain(c.detail);
      expect(await footprint()).toEqual(before);
    });
  }

  it(`a .zip over ${MAX_BUNDLE_BYTES} bytes: 413 too_large`, async () => {
    const before = await footprint();
    const res = await importBundle(t, w.course.id, w.tokens.editor, Buffer.alloc(MAX_BUNDLE_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('too_large');
    expect(await footprint()).toEqual(before);
  });

  it('a failure after attachments were stored removes them again', async () => {
    const before = await footprint();
    const put = t.ctx.storage.put.bind(t.ctx.storage);
    let calls = 0;
    const spy = vi.spyOn(t.ctx.storage, 'put').mockImplementation(async (...args) => {
      calls += 1;
      if (calls === 2) throw new Error('disk full');
      return put(...args);
    });
    try {
      const res = await importBundle(
        t,
        w.course.id,
        w.tokens.editor,
        zipOf({ 'assignment.json': meta(), 'files/a.txt': 'a', 'files/b.txt': 'b' }),
      );
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBe(2);
    expect(await footprint()).toEqual(before);
  });
});
