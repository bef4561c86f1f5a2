import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AssignmentEditorView,
  AssignmentFileList,
  MAX_BUNDLE_ENTRIES,
  TestCaseEditorView,
  TestCaseList,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { importBundle, zipOf } from './testing.ts';

/**
 * Bundles made the usual way (docs/assignments.md, "Bundles"): a zip of a folder, and what macOS and
 * Windows add when they compress one. bundle-refusals.test.ts has what stays refused.
 */

const meta = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ format_version: 1, title: 'Imported', ...fields });
const test = (fields: Record<string, unknown> = {}) => JSON.stringify({ name: 'Adds', ...fields });
/** Bytes no part of the import would take: not UTF-8, not JSON. Read, they would be refused. */
const binary = new Uint8Array([0x00, 0x05, 0x16, 0x07, 0xff, 0xfe, 0x00, 0x00]);

/** A flat bundle with something in every place of the layout. */
const fullBundle = () =>
  zipOf({
    'assignment.json': meta({ title: 'Sum of two', entry_file: 'sum.py', max_files: 2 }),
    'statement.md': '# Sum\n\n和を出力。\n',
    'starter/sum.py': 'a, b = ...\n',
    'reference/sum.py': 'a, b = map(int, input().split())\nprint(a + b)\n',
    'files/data.csv': 'a,b\n1,2\n',
    'tests/01-adds/test.json': test({ points: 2 }),
    'tests/01-adds/input.txt': '1 2\n',
    'tests/01-adds/expected.txt': '3\n',
    'tests/02-checked/test.json': test({ name: 'Checked', kind: 'script', visibility: 'hidden' }),
    'tests/02-checked/check.py': 'import sys\nsys.exit(0)\n',
  });

/** Every entry of `zip` under `folder/`, with an entry for each folder, as `zip -r` writes them. */
function inFolder(zip: Buffer, folder: string, extra: Record<string, string | Uint8Array> = {}) {
  const wrapped: Record<string, string | Uint8Array> = { [`${folder}/`]: new Uint8Array(0) };
  for (const [name, data] of Object.entries(unzipSync(zip))) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++)
      wrapped[`${folder}/${parts.slice(0, i).join('/')}/`] = new Uint8Array(0);
    wrapped[`${folder}/${name}`] = data;
  }
  return zipOf({ ...wrapped, ...extra });
}

describe('assignment bundles made the usual way: a zipped folder, with what the archiver adds', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof createCourseWorld>>;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createCourseWorld(t);
  });
  afterAll(() => t.close());

  const importOk = async (zip: Buffer) => {
    const res = await importBundle(t, w.course.id, w.tokens.editor, zip);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return AssignmentEditorView.parse(res.body);
  };
  const exportZip = async (id: number) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/Assignment/${id}/${w.course.id}/export/`,
        headers: { authorization: `Bearer ${w.tokens.editor}` },
      })
    ).rawPayload;
  const get = async (url: string) => (await call(t, 'GET', url, { token: w.tokens.editor })).body;
  /** The assignment, its test cases and its attachments, without what differs between two copies. */
  const contentOf = async (a: z.infer<typeof AssignmentEditorView>) => {
    const { id: _id, created_at: _c, updated_at: _u, courses: _courses, ...fields } = a;
    const base = `/api/Assignment/${a.id}/${w.course.id}`;
    const tests = TestCaseList.parse(await get(`${base}/TestCase/`)).results.map((tc) => {
      const {
        id: _t,
        assignment_id: _a,
        created_at: _tc,
        updated_at: _tu,
        ...rest
      } = TestCaseEditorView.parse(tc);
      return rest;
    });
    const files = AssignmentFileList.parse(await get(`${base}/FileUpload/`)).map(
      ({ filename, size, content_type }) => ({ filename, size, content_type }),
    );
    return { fields, tests, files };
  };

  it('round-trips through a zip of a folder: the one folder all entries are in is read as the root', async () => {
    const original = await importOk(fullBundle());
    const exported = await exportZip(original.id);
    const zipped = inFolder(exported, 'my-assignment');
    expect(Object.keys(unzipSync(zipped))).toContain('my-assignment/tests/01-adds/test.json');

    const copy = await importOk(zipped);
    expect(copy.id).not.toBe(original.id);
    const content = await contentOf(copy);
    expect(content).toEqual(await contentOf(original));
    expect(content.fields).toMatchObject({ title: 'Sum of two', entry_file: 'sum.py', test_case_count: 2 });
    expect(content.files).toEqual([{ filename: 'data.csv', size: 8, content_type: 'text/csv' }]);
    // The copy exports as a flat bundle again, the same entries byte for byte.
    const first = unzipSync(exported);
    const second = unzipSync(await exportZip(copy.id));
    expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
    for (const [name, data] of Object.entries(first))
      expect(Buffer.from(second[name]!).equals(data), name).toBe(true);
  });

  it('leaves out __MACOSX/, ._ files beside real ones, .DS_Store, Thumbs.db and desktop.ini, unread', async () => {
    const junk = {
      '__MACOSX/': new Uint8Array(0),
      '__MACOSX/._assignment.json': binary,
      '__MACOSX/tests/01-adds/._test.json': binary,
      '__MACOSX/notes.txt': binary,
      '._statement.md': binary,
      '._tests': binary,
      'files/._data.csv': binary,
      '.DS_Store': binary,
      'tests/.DS_Store': binary,
      'tests/01-adds/.DS_Store': binary,
      'Thumbs.db': binary,
      'files/Thumbs.db': binary,
      'starter/desktop.ini': binary,
      'tests/01-adds/Desktop.ini': binary,
    };
    const flat = unzipSync(fullBundle());
    const a = await importOk(zipOf({ ...flat, ...junk }));
    const content = await contentOf(a);
    expect(content.fields).toMatchObject({ title: 'Sum of two', statement: '# Sum\n\n和を出力。\n' });
    expect(content.tests.map((tc) => tc.name)).toEqual(['Adds', 'Checked']);
    expect(content.files.map((f) => f.filename)).toEqual(['data.csv']);
  });

  it('reads a zipped folder that also holds junk, inside it and beside it', async () => {
    const a = await importOk(
      inFolder(fullBundle(), 'sum-of-two', {
        '__MACOSX/': new Uint8Array(0),
        '__MACOSX/sum-of-two/': new Uint8Array(0),
        '__MACOSX/sum-of-two/._assignment.json': binary,
        '__MACOSX/sum-of-two/files/._data.csv': binary,
        '._sum-of-two': binary,
        '.DS_Store': binary,
        'Thumbs.db': binary,
        'sum-of-two/.DS_Store': binary,
        'sum-of-two/._statement.md': binary,
        'sum-of-two/desktop.ini': binary,
        'sum-of-two/tests/01-adds/Thumbs.db': binary,
      }),
    );
    const content = await contentOf(a);
    expect(content.fields).toMatchObject({ title: 'Sum of two', entry_file: 'sum.py', test_case_count: 2 });
    expect(content.files.map((f) => f.filename)).toEqual(['data.csv']);
  });

  it('reads a zipped folder with no folder entries, as some archivers write it', async () => {
    const a = await importOk(
      zipOf({ 'x/assignment.json': meta({ title: 'No folder entries' }), 'x/statement.md': 'Hi' }),
    );
    expect(a).toMatchObject({ title: 'No folder entries', statement: 'Hi' });
  });

  it(`counts junk among the ${MAX_BUNDLE_ENTRIES} entries: exactly at the limit still imports`, async () => {
    const junk = Object.fromEntries(
      Array.from({ length: MAX_BUNDLE_ENTRIES - 1 }, (_, i) => [`__MACOSX/._f${i}`, binary]),
    );
    await importOk(zipOf({ 'assignment.json': meta(), ...junk }));
    // One more entry, junk or not, is refused (bundle-refusals.test.ts).
  });
});
