import { describe, expect, it } from 'vitest';
import { markdown, outputText, str, text, textProblem, uploadedJson } from './text.ts';

describe('the text rule', () => {
  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['BEL', '\u0007', 'U+0007'],
    ['vertical tab', 'a\u000bb', 'U+000B'],
    ['form feed', '\u000c', 'U+000C'],
    ['escape', '\u001b[31m', 'U+001B'],
    ['DEL', 'x\u007f', 'U+007F'],
  ])('refuses %s, naming the character', (_name, value, code) => {
    expect(textProblem(value)).toContain(code);
  });

  it.each([
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', 'x\udc00y'],
    ['a pair written backwards', '\ude00\ud83d'],
  ])('refuses %s', (_name, value) => {
    expect(textProblem(value)).toMatch(/unpaired surrogate/);
  });

  it.each([
    ['tab, newlines and carriage returns', 'def f():\r\n\treturn 1\n'],
    ['Japanese', '第1回 課題：関数'],
    ['emoji (surrogate pairs)', '😀👩‍👩‍👧'],
    ['right-to-left text', '\u202e\u0645\u0631\u062d\u0628\u0627'],
    ['the replacement character', '\ufffd'],
    ['empty', ''],
  ])('accepts %s', (_name, value) => {
    expect(textProblem(value)).toBeUndefined();
  });
});

describe('the helpers', () => {
  it('text trims, normalises to NFC and refuses empty', () => {
    expect(text(10).parse('  か\u3099  ')).toBe('が');
    expect(text(10).safeParse('   ').success).toBe(false);
    expect(text(10).safeParse('a\u0000').error?.issues[0]?.message).toContain('U+0000');
  });

  it('markdown and str keep what was written, but not control characters', () => {
    expect(markdown(100).parse('  # か\u3099\n')).toBe('  # か\u3099\n');
    expect(str().safeParse('token\u0000').success).toBe(false);
  });

  it('output text keeps terminal colours and refuses only what cannot be stored', () => {
    expect(outputText(100).parse('\u001b[0;31mValueError\u001b[0m')).toContain('\u001b');
    expect(outputText(100).safeParse('\u0000').success).toBe(false);
    expect(outputText(100).safeParse('\ud800').success).toBe(false);
  });

  it('an uploaded document is refused for NUL or half a character anywhere inside', () => {
    expect(uploadedJson().safeParse({ cells: [{ source: 'ok\u001b' }] }).success).toBe(true);
    expect(uploadedJson().safeParse({ cells: [{ source: ['a', 'b\u0000'] }] }).success).toBe(false);
    expect(uploadedJson().safeParse({ ['key\ud800']: 1 }).success).toBe(false);
  });
});
