import { describe, expect, it } from 'vitest';
import { headOf, storableText } from './output-text.ts';

describe('storableText', () => {
  it('replaces NUL and unpaired surrogates with U+FFFD, keeping everything else', () => {
    expect(storableText('a\0b\0')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('\uD800x\uDFFF')).toBe('\uFFFDx\uFFFD');
    expect(storableText('\uDC00\uD800')).toBe('\uFFFD\uFFFD'); // a pair in the wrong order is two halves
    const kept = 'tab\there\r\n\u001b[31mred\u001b[0m 日本語 \u{1F600} \uFFFD';
    expect(storableText(kept)).toBe(kept);
    expect(storableText('a\0b')).toBe(storableText('a\0b')); // the global pattern keeps no state
  });
});

describe('headOf', () => {
  it('cuts at a whole character', () => {
    expect(headOf('abc', 5)).toBe('abc');
    expect(headOf('abc', 2)).toBe('ab');
    expect(headOf('a\u{1F600}b', 2)).toBe('a');
    expect(headOf('a\u{1F600}b', 3)).toBe('a\u{1F600}');
    expect(headOf('abc', 0)).toBe('');
  });
});
