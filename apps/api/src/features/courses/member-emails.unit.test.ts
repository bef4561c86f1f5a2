import { describe, expect, it } from 'vitest';
import { collectEmails, parseCsvRecords } from './member-emails.ts';

describe('parseCsvRecords', () => {
  it('splits on commas, semicolons and tabs, and on every kind of line end', () => {
    expect(parseCsvRecords('a,b;c\td\r\ne\rf\ng')).toEqual([['a', 'b', 'c', 'd'], ['e'], ['f'], ['g']]);
  });

  it('keeps separators, doubled quotes and line breaks inside quoted cells', () => {
    expect(parseCsvRecords('"Yamada, Taro","say ""hi""","two\nlines"\nx')).toEqual([
      ['Yamada, Taro', 'say "hi"', 'two\nlines'],
      ['x'],
    ]);
  });

  it('drops a byte-order mark', () => {
    expect(parseCsvRecords('\uFEFFemail\na@b.jp')).toEqual([['email'], ['a@b.jp']]);
  });
});

describe('collectEmails', () => {
  it('takes a pasted list, one address a line, lower-cased and each once', () => {
    expect(collectEmails([], 'Taro@Example.jp\n\nhanako@example.jp\r\ntaro@example.jp\n')).toEqual({
      emails: ['taro@example.jp', 'hanako@example.jp'],
      invalid: [],
    });
  });

  it('reads an exported CSV with a header row, quotes, names and messy separators', () => {
    const csv = [
      '\uFEFF"Student No.";"Name";"E-mail"',
      '1001;"Yamada, Taro";taro@example.jp',
      '1002\t"Suzuki Hanako"\t  HANAKO@example.jp ',
      '1003,"Tanaka Jiro",',
      '1004,Broken,jiro@@example',
      '"Sato Ken" <ken@example.jp>, mailto:mei@example.jp',
      '',
    ].join('\r\n');
    expect(collectEmails([], csv)).toEqual({
      emails: ['taro@example.jp', 'hanako@example.jp', 'ken@example.jp', 'mei@example.jp'],
      invalid: ['1003, Tanaka Jiro', 'jiro@@example'],
    });
  });

  it('checks listed entries one by one and merges them with the csv', () => {
    expect(collectEmails(['a@example.jp', 'not-an-address', ' ', 'B@example.jp'], 'b@example.jp')).toEqual({
      emails: ['a@example.jp', 'b@example.jp'],
      invalid: ['not-an-address'],
    });
  });

  it('shortens very long invalid entries', () => {
    const long = `${'x'.repeat(400)}@`;
    const { invalid } = collectEmails([long], undefined);
    expect(invalid[0]!.length).toBeLessThanOrEqual(255);
  });
});
