import { describe, expect, it } from 'vitest';
import { defaultCompareWith, pairFilesByName, parseCompareWith } from './compare-sides.ts';

const file = (filename: string, content: string | null = filename) => ({ filename, content });

describe('pairFilesByName', () => {
  it('pairs files of the same name, the left side’s order first', () => {
    const pairs = pairFilesByName(
      [file('main.py'), file('util.py')],
      [file('util.py', 'u2'), file('main.py', 'm2')],
    );
    expect(pairs).toEqual([
      { filename: 'main.py', left: file('main.py'), right: file('main.py', 'm2') },
      { filename: 'util.py', left: file('util.py'), right: file('util.py', 'u2') },
    ]);
  });

  it('leaves a file on one side only without a partner', () => {
    const pairs = pairFilesByName([file('main.py'), file('old.py')], [file('main.py'), file('new.py')]);
    expect(pairs.map((pair) => [pair.filename, pair.left !== null, pair.right !== null])).toEqual([
      ['main.py', true, true],
      ['old.py', true, false],
      ['new.py', false, true],
    ]);
  });

  it('matches names exactly (case and all)', () => {
    const pairs = pairFilesByName([file('Main.py')], [file('main.py')]);
    expect(pairs).toHaveLength(2);
  });

  it('gives nothing for two sides without files', () => {
    expect(pairFilesByName([], [])).toEqual([]);
  });
});

describe('defaultCompareWith', () => {
  const newestFirst = [{ id: 9 }, { id: 7 }, { id: 4 }];

  it('is the submission made just before', () => {
    expect(defaultCompareWith(7, newestFirst, true)).toBe(4);
    expect(defaultCompareWith(9, newestFirst, false)).toBe(7);
  });

  it('is the one just after for the first submission', () => {
    expect(defaultCompareWith(4, newestFirst, true)).toBe(7);
  });

  it('is the reference for an editor when there is no other submission', () => {
    expect(defaultCompareWith(4, [{ id: 4 }], true)).toBe('reference');
    expect(defaultCompareWith(4, [{ id: 4 }], false)).toBeNull();
  });

  it('is the newest when the submission is not in the list', () => {
    expect(defaultCompareWith(1, newestFirst, false)).toBe(9);
  });
});

describe('parseCompareWith', () => {
  it('reads a submission id or the reference', () => {
    expect(parseCompareWith('12')).toBe(12);
    expect(parseCompareWith('reference')).toBe('reference');
  });

  it('refuses anything else', () => {
    for (const value of [null, '', '0', '-1', '1.5', 'abc', '99999999999']) {
      expect(parseCompareWith(value), String(value)).toBeNull();
    }
  });
});
