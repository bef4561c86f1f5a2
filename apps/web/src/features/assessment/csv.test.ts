import { describe, expect, it } from 'vitest';
import { csvBlob, csvCell, toCsv } from './csv.ts';

describe('CSV', () => {
  it('quotes cells with quotes, commas and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('puts an apostrophe before text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers as they are and nothing for null', () => {
    expect(csvCell(72.5)).toBe('72.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('joins rows with CRLF and starts the file with a UTF-8 byte-order mark', async () => {
    expect(
      toCsv([
        ['名前', 'score'],
        ['山田 太郎', 9],
      ]),
    ).toBe('名前,score\r\n山田 太郎,9\r\n');
    const blob = csvBlob([['名前']]);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('名前\r\n');
  });
});
