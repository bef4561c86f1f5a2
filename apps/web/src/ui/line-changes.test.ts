import { Chunk } from '@codemirror/merge';
import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { countLineChanges } from './line-changes.ts';

function count(left: string, right: string) {
  const a = Text.of(left.split('\n'));
  const b = Text.of(right.split('\n'));
  return countLineChanges(Chunk.build(a, b), a, b);
}

describe('countLineChanges', () => {
  it('finds nothing in equal texts', () => {
    expect(count('a\nb\n', 'a\nb\n')).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it('counts a rewritten line once as changed, and as both added and removed', () => {
    expect(count('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ added: 1, removed: 1, changed: 1 });
  });

  it('counts lines only on one side', () => {
    expect(count('a\nb\nc\n', 'a\nb\nc\nd\ne\n')).toEqual({ added: 2, removed: 0, changed: 2 });
    expect(count('a\nb\nc\nd\n', 'a\nd\n')).toEqual({ added: 0, removed: 2, changed: 2 });
  });

  it('counts every line of a file missing on one side', () => {
    expect(count('', 'x = 1\nprint(x)')).toEqual({ added: 2, removed: 0, changed: 2 });
  });

  it('adds up chunks apart from each other', () => {
    const left = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
    const right = ['A', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'I', 'j'].join('\n');
    expect(count(left, right)).toEqual({ added: 3, removed: 2, changed: 3 });
  });
});
