import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_POSITION, forumSearchQuery, forumSearchVector } from './search.ts';

/** The lexeme → positions map of a vector literal (our literals never contain spaces inside quotes). */
function lexemes(vector: string): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const match of vector.matchAll(/'((?:[^']|'')*)':([\d,]+)/g)) {
    map.set(match[1]!.replace(/''/g, "'"), match[2]!.split(',').map(Number));
  }
  return map;
}

/**
 * A tiny evaluator of our own query shapes against a vector: enough to check "would PostgreSQL
 * match", which the database test (search.test.ts) confirms on the real thing.
 */
function matches(vector: string, query: string): boolean {
  const lex = lexemes(vector);
  return query.split(' & ').every((term) => {
    const prefix = /^'(.*)':\*$/.exec(term);
    if (prefix) return [...lex.keys()].some((k) => k.startsWith(prefix[1]!));
    const parts = term
      .replace(/^\(|\)$/g, '')
      .split(' <-> ')
      .map((p) => p.slice(1, -1));
    const first = lex.get(parts[0]!) ?? [];
    return first.some((start) => parts.every((p, i) => (lex.get(p) ?? []).includes(start + i)));
  });
}

describe('forumSearchVector', () => {
  it('makes English words lower-case lexemes with positions', () => {
    expect(forumSearchVector('Sorting', 'Merge sort, then sort again.')).toBe(
      "'sorting':1 'merge':2 'sort':3,5 'then':4 'again':6",
    );
  });

  it('makes Japanese runs bigrams plus the last character', () => {
    expect(forumSearchVector('', 'リスト内包')).toBe("'リス':1 'スト':2 'ト内':3 '内包':4 '包':5");
  });

  it('normalises full-width and half-width forms (NFKC)', () => {
    expect(forumSearchVector('ＰＹＴＨＯＮ', 'ｶﾀｶﾅ')).toBe("'python':1 'カタ':2 'タカ':3 'カナ':4 'ナ':5");
  });

  it('clamps positions of long content to 16383 and keeps the literal valid', () => {
    const content = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
    const vector = forumSearchVector('', content);
    const lex = lexemes(vector);
    expect(lex.get('w0')).toEqual([1]);
    expect(lex.get('w19999')).toEqual([MAX_SEARCH_POSITION]);
    expect(Math.max(...[...lex.values()].flat())).toBe(MAX_SEARCH_POSITION);
  });

  it('keeps at most 256 positions of one lexeme', () => {
    const vector = forumSearchVector('', 'a '.repeat(1000));
    expect(lexemes(vector).get('a')).toHaveLength(256);
  });

  it('cuts very long words', () => {
    const vector = forumSearchVector('', 'x'.repeat(5000));
    expect([...lexemes(vector).keys()][0]).toHaveLength(64);
  });

  it('treats punctuation and operators as separators', () => {
    expect(forumSearchVector("it's", "a\\b:c & d|e !f <g> (h) *i 'j'")).toBe(
      "'it':1 's':2 'a':3 'b':4 'c':5 'd':6 'e':7 'f':8 'g':9 'h':10 'i':11 'j':12",
    );
  });
});

describe('forumSearchQuery', () => {
  const doc = forumSearchVector('リスト内包表記の質問', 'Pythonのリストについて。Sorting algorithms 表');

  it('finds English words by prefix', () => {
    expect(forumSearchQuery('algo')).toBe("'algo':*");
    expect(matches(doc, forumSearchQuery('algo')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('SORT')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('graph')!)).toBe(false);
  });

  it('finds Japanese without spaces, from the start or the middle of a run', () => {
    expect(forumSearchQuery('内包')).toBe("'内包'");
    expect(forumSearchQuery('包表記')).toBe("('包表' <-> '表記')");
    expect(matches(doc, forumSearchQuery('内包')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('包表記')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('リスト内包表記')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('表記内包')!)).toBe(false);
  });

  it('finds a single kanji anywhere in a run, including its end', () => {
    expect(forumSearchQuery('表')).toBe("'表':*");
    expect(matches(doc, forumSearchQuery('表')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('問')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('猫')!)).toBe(false);
  });

  it('ANDs mixed English and Japanese', () => {
    expect(forumSearchQuery('Pythonのリスト')).toBe("'python':* & ('のリ' <-> 'リス' <-> 'スト')");
    expect(matches(doc, forumSearchQuery('Pythonのリスト')!)).toBe(true);
    expect(matches(doc, forumSearchQuery('python 猫')!)).toBe(false);
  });

  it('cannot be broken by quotes, backslashes, colons or operators', () => {
    expect(forumSearchQuery("it's")).toBe("'it':* & 's':*");
    expect(forumSearchQuery("a\\b:c & d|e !f <g> (h) *i 'j' <->")).toBe(
      "'a':* & 'b':* & 'c':* & 'd':* & 'e':* & 'f':* & 'g':* & 'h':* & 'i':* & 'j':*",
    );
    expect(forumSearchQuery("'':*")).toBeNull();
  });

  it('is null when there is nothing to search for', () => {
    expect(forumSearchQuery('')).toBeNull();
    expect(forumSearchQuery('   \t\n ')).toBeNull();
    expect(forumSearchQuery('、。!?')).toBeNull();
  });
});
