import { describe, expect, it } from 'vitest';
import { compareOutput, numbersClose, parseNumber, tokens } from './compare.ts';

const equal = (...args: Parameters<typeof compareOutput>) => compareOutput(...args).equal;

describe('exact comparison', () => {
  it('accepts identical output', () => {
    expect(equal('exact', 'a\nb\n', 'a\nb\n')).toBe(true);
  });

  it('ignores exactly one trailing newline on either side', () => {
    expect(equal('exact', '3\n', '3')).toBe(true);
    expect(equal('exact', '3', '3\n')).toBe(true);
    expect(equal('exact', '3\n', '3\n\n')).toBe(false);
  });

  it('treats CRLF as LF', () => {
    expect(equal('exact', 'a\nb\n', 'a\r\nb\r\n')).toBe(true);
    expect(equal('exact', 'a\r\nb', 'a\nb\n')).toBe(true);
  });

  it('does not forgive trailing spaces or a lone CR', () => {
    expect(equal('exact', 'a\n', 'a \n')).toBe(false);
    expect(equal('exact', 'a\nb', 'a\rb')).toBe(false);
  });

  it('handles empty output', () => {
    expect(equal('exact', '', '')).toBe(true);
    expect(equal('exact', '', '\n')).toBe(true);
    expect(equal('exact', '1\n', '')).toBe(false);
  });

  it('says which line differs without quoting the expected text', () => {
    const result = compareOutput('exact', 'one\ntwo\nsecret\n', 'one\ntwo\nthree\n');
    expect(result).toEqual({ equal: false, hint: 'Line 3 differs.' });
    expect(compareOutput('exact', 'a\nb', 'a\nb\nc').hint).toBe('Expected 2 lines, got 3.');
  });
});

describe('whitespace comparison', () => {
  it('compares token sequences only', () => {
    expect(equal('whitespace', '1 2 3\n', '1   2\t3')).toBe(true);
    expect(equal('whitespace', '1 2 3', '1\n2\n3\n\n  ')).toBe(true);
    expect(equal('whitespace', '  a b  ', 'a b')).toBe(true);
  });

  it('still requires the same tokens in the same order', () => {
    expect(equal('whitespace', '1 2 3', '1 3 2')).toBe(false);
    expect(equal('whitespace', '1 2 3', '1 2')).toBe(false);
    expect(equal('whitespace', '12', '1 2')).toBe(false);
  });

  it('is case-sensitive and does not parse numbers', () => {
    expect(equal('whitespace', 'Yes', 'yes')).toBe(false);
    expect(equal('whitespace', '1.0', '1')).toBe(false);
  });

  it('treats empty and blank output alike', () => {
    expect(equal('whitespace', '', ' \n\t')).toBe(true);
    expect(equal('whitespace', '', 'x')).toBe(false);
  });

  it('counts tokens in its hint', () => {
    expect(compareOutput('whitespace', 'a b c', 'a b').hint).toBe('Expected 3 tokens, got 2.');
    expect(compareOutput('whitespace', 'a', '').hint).toBe('Expected 1 token, got 0.');
    expect(compareOutput('whitespace', 'a b', 'a c').hint).toBe('Token 2 differs.');
  });
});

describe('numeric comparison', () => {
  it('accepts numbers within the absolute tolerance', () => {
    expect(equal('numeric', '0.333333', '0.3333333333', 1e-6)).toBe(true);
    expect(equal('numeric', '0', '1e-7', 1e-6)).toBe(true);
    expect(equal('numeric', '0', '1e-5', 1e-6)).toBe(false);
  });

  it('accepts numbers within the relative tolerance', () => {
    expect(equal('numeric', '1000000000', '1000000500', 1e-6)).toBe(true);
    expect(equal('numeric', '1000000000', '1000005000', 1e-6)).toBe(false);
  });

  it('compares integers written differently', () => {
    expect(equal('numeric', '1', '1.0')).toBe(true);
    expect(equal('numeric', '-0', '0')).toBe(true);
    expect(equal('numeric', '2.5E3', '2500')).toBe(true);
    expect(equal('numeric', '+3', '3')).toBe(true);
  });

  it('matches NaN only with NaN and an infinity only with the same one', () => {
    expect(equal('numeric', 'nan', 'NaN')).toBe(true);
    expect(equal('numeric', 'nan', '0')).toBe(false);
    expect(equal('numeric', '0', 'nan')).toBe(false);
    expect(equal('numeric', 'inf', 'Infinity')).toBe(true);
    expect(equal('numeric', '-inf', 'inf')).toBe(false);
    expect(equal('numeric', 'inf', '1e308', 1)).toBe(false);
  });

  it('compares words exactly and never equates a word with a number', () => {
    expect(equal('numeric', 'x = 1.5', 'x = 1.5000001')).toBe(true);
    expect(equal('numeric', 'x = 1.5', 'y = 1.5')).toBe(false);
    expect(equal('numeric', '16', '0x10')).toBe(false);
    expect(equal('numeric', '1000', '1,000')).toBe(false);
  });

  it('requires the same number of tokens and handles empty output', () => {
    expect(equal('numeric', '1 2', '1 2 3')).toBe(false);
    expect(equal('numeric', '1', '')).toBe(false);
    expect(equal('numeric', '', '')).toBe(true);
  });

  it('with zero tolerance needs the same value', () => {
    expect(equal('numeric', '0.1', '0.10', 0)).toBe(true);
    expect(equal('numeric', '0.1', '0.1000001', 0)).toBe(false);
  });
});

describe('helpers', () => {
  it('parses only numbers as Python prints them', () => {
    expect(parseNumber('42')).toBe(42);
    expect(parseNumber('-.5')).toBe(-0.5);
    expect(parseNumber('5.')).toBe(5);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('-inf')).toBe(Number.NEGATIVE_INFINITY);
    expect(parseNumber('nan')).toBeNaN();
    for (const word of ['', '.', 'e5', '0x1f', '1_000', '1,5', 'one', '1e', '--1', 'infinit']) {
      expect(parseNumber(word)).toBeNull();
    }
  });

  it('splits tokens on any whitespace', () => {
    expect(tokens(' a\tb\r\nc\u00a0d ')).toEqual(['a', 'b', 'c', 'd']);
    expect(tokens('')).toEqual([]);
  });

  it('numbersClose is symmetric', () => {
    expect(numbersClose(1, 1.0000005, 1e-6)).toBe(numbersClose(1.0000005, 1, 1e-6));
    expect(numbersClose(-1, 1, 1e-6)).toBe(false);
  });
});
