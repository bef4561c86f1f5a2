import { describe, expect, it } from 'vitest';
import { FileName } from './assignments.ts';
import { fileNameProblem, MAX_FILE_NAME_BYTES, UploadFileName } from './files.ts';

describe('UploadFileName: the names of attachments and other uploads', () => {
  it('takes names in any script, with spaces and punctuation, as given', () => {
    for (const name of [
      '資料.pdf',
      '第1回 課題.py',
      'レポート (1).docx',
      'Übung 3 – Lösung.pdf',
      'données.csv',
      'party 🎉.txt',
      'a "quoted" name.txt',
      '100% done.csv',
      'Makefile',
      'x'.repeat(MAX_FILE_NAME_BYTES),
    ]) {
      expect(UploadFileName.parse(name), name).toBe(name);
    }
  });

  it('normalises to NFC', () => {
    expect(UploadFileName.parse('か\u3099.txt')).toBe('が.txt');
    expect(UploadFileName.parse('か\u3099.txt')).toHaveLength(5);
  });

  it('refuses folders, "..", a leading dot, control characters and names over 255 bytes', () => {
    const cases: [string, RegExp][] = [
      ['', /needed/],
      ['   ', /needed/],
      ['../x.pdf', /folders/],
      ['a/b.pdf', /folders/],
      ['a\\b.pdf', /folders/],
      ['.hidden', /start with "\."/],
      ['..', /start with "\."/],
      ['a..b.pdf', /"\.\."/],
      ['a\u0000b.pdf', /U\+0000/],
      ['a\u0007b.pdf', /U\+0007/],
      ['a\u007fb.pdf', /U\+007F/],
      ['a\tb.pdf', /U\+0009/],
      ['a\nb.pdf', /U\+000A/],
      ['invoice\u202Efdp.exe', /U\+202E/],
      ['a\uD800.pdf', /surrogate/],
      ['x'.repeat(MAX_FILE_NAME_BYTES + 1), /255 bytes/],
      // 300 bytes in 100 characters: the limit is in bytes, what file systems count.
      ['あ'.repeat(100), /255 bytes.*300/],
    ];
    for (const [name, message] of cases) {
      const result = UploadFileName.safeParse(name);
      expect(result.success, JSON.stringify(name)).toBe(false);
      expect(result.error!.issues).toHaveLength(1);
      expect(result.error!.issues[0]!.message, JSON.stringify(name)).toMatch(message);
      expect(fileNameProblem(name.normalize('NFC')), JSON.stringify(name)).toMatch(message);
    }
  });

  it('leaves code files to the narrower FileName: importable names only', () => {
    expect(FileName.safeParse('main.py').success).toBe(true);
    expect(FileName.safeParse('my_module-2.py').success).toBe(true);
    for (const name of ['第1回 課題.py', 'a b.py', '資料.pdf', '.hidden', '../x.py', 'a..py']) {
      expect(FileName.safeParse(name).success, name).toBe(false);
    }
  });
});
