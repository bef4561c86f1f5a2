import { describe, expect, it } from 'vitest';
import { checkSubmissionFiles, extensionOf, readSubmittedFile, type FileLimits } from './file-limits.ts';

const LIMITS: FileLimits = {
  entry_file: 'main.py',
  required_files: ['data.csv'],
  allowed_extensions: ['.py', '.txt'],
  max_files: 3,
  max_file_bytes: 1000,
};

const file = (name: string, size = 10) => ({ name, size });

describe('extensionOf', () => {
  it('reads the last extension, lower-cased', () => {
    expect(extensionOf('a.PY')).toBe('.py');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('Makefile')).toBe('');
    expect(extensionOf('.hidden')).toBe('');
  });
});

describe('checkSubmissionFiles', () => {
  it('accepts code in the editor with the required files', () => {
    expect(checkSubmissionFiles('print(1)', [file('data.csv')], LIMITS)).toEqual([]);
  });

  it('accepts the entry file uploaded instead of typed', () => {
    expect(checkSubmissionFiles('', [file('main.py'), file('data.csv')], LIMITS)).toEqual([]);
  });

  it('refuses an empty submission', () => {
    expect(checkSubmissionFiles('  \n', [], LIMITS)).toEqual([{ kind: 'empty' }]);
  });

  it('refuses extensions that are not allowed, unless the file is required', () => {
    expect(checkSubmissionFiles('x=1', [file('data.csv'), file('notes.md')], LIMITS)).toEqual([
      { kind: 'extension', filename: 'notes.md', allowed: ['.py', '.txt'] },
    ]);
  });

  it('refuses names with folders or odd characters', () => {
    const problems = checkSubmissionFiles('x=1', [file('data.csv'), file('../etc.py'), file('a b.py')], {
      ...LIMITS,
      max_files: 10,
    });
    expect(problems).toEqual([
      { kind: 'badName', filename: '../etc.py' },
      { kind: 'badName', filename: 'a b.py' },
    ]);
  });

  it('refuses files over the size limit, the typed code included', () => {
    expect(checkSubmissionFiles('x'.repeat(1001), [file('data.csv', 1001)], LIMITS)).toEqual([
      { kind: 'tooLarge', filename: 'main.py', size: 1001, max: 1000 },
      { kind: 'tooLarge', filename: 'data.csv', size: 1001, max: 1000 },
    ]);
  });

  it('counts the typed code as a file against the maximum', () => {
    expect(checkSubmissionFiles('x=1', [file('data.csv'), file('a.py'), file('b.py')], LIMITS)).toEqual([
      { kind: 'tooMany', count: 4, max: 3 },
    ]);
  });

  it('refuses two files of the same name, and a file named like the typed code', () => {
    expect(checkSubmissionFiles('x=1', [file('data.csv'), file('main.py')], LIMITS)).toEqual([
      { kind: 'duplicate', filename: 'main.py' },
    ]);
  });

  it('refuses the names of attachments and of the test driver', () => {
    expect(
      checkSubmissionFiles('x=1', [file('data.csv'), file('_driver.py')], LIMITS, ['input.txt']),
    ).toEqual([{ kind: 'reserved', filename: '_driver.py' }]);
    expect(checkSubmissionFiles('x=1', [file('data.csv'), file('input.txt')], LIMITS, ['input.txt'])).toEqual(
      [{ kind: 'reserved', filename: 'input.txt' }],
    );
  });

  it('names each missing required file', () => {
    expect(checkSubmissionFiles('', [file('a.py')], LIMITS)).toEqual([
      { kind: 'missing', filename: 'main.py' },
      { kind: 'missing', filename: 'data.csv' },
    ]);
  });
});

describe('readSubmittedFile', () => {
  it('sends UTF-8 text as text', async () => {
    const text = new File(['print("こんにちは")\n'], 'main.py');
    expect(await readSubmittedFile(text)).toEqual({
      filename: 'main.py',
      content: 'print("こんにちは")\n',
      encoding: 'utf-8',
    });
  });

  it('sends text with control characters the API refuses in text (a form feed) as base64, bytes kept', async () => {
    const source = 'print(1)\n\f\nprint(2)\n';
    const text = new File([source], 'old.py');
    expect(await readSubmittedFile(text)).toEqual({
      filename: 'old.py',
      content: btoa(source),
      encoding: 'base64',
    });
  });

  it('sends anything else as base64', async () => {
    const binary = new File([new Uint8Array([0x89, 0x50, 0x00, 0xff])], 'image.png');
    expect(await readSubmittedFile(binary)).toEqual({
      filename: 'image.png',
      content: btoa(String.fromCharCode(0x89, 0x50, 0x00, 0xff)),
      encoding: 'base64',
    });
  });
});
