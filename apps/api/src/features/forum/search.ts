/*
 * Forum full-text search without a database extension (PostgreSQL 15 and PGlite alike).
 *
 * PostgreSQL's parsers split words on spaces, which Japanese does not have, so the app tokenizes:
 * after NFKC and lower-casing, a run of letters/digits of a spaced script (Latin, Greek, …) is one
 * word lexeme; a run of Japanese/CJK characters becomes its overlapping character bigrams plus the
 * run's last character as a unigram, each at its own position. The result is stored as a tsvector
 * LITERAL (cast with ::tsvector, which does no further normalisation) and searched with a tsquery
 * literal built by the same rules. docs/forum.md ("Search") explains the design and its limits.
 */

/** PostgreSQL's largest tsvector position; later tokens share it (phrases there no longer match). */
export const MAX_SEARCH_POSITION = 16383;
/** PostgreSQL keeps at most this many positions of one lexeme; we drop the rest ourselves. */
const MAX_POSITIONS_PER_LEXEME = 256;
/** Longer words are cut (a lexeme may not exceed 2 KB); queries are cut the same way, so prefixes still match. */
const MAX_WORD_LENGTH = 64;

type Run = { kind: 'word' | 'cjk'; text: string };

const LETTER_OR_DIGIT = /[\p{L}\p{M}\p{N}]/u;
/* Script_Extensions also covers ー and 々 (shared by kana and kanji); the LETTER_OR_DIGIT test
 * first keeps CJK punctuation such as 、。「」 (which have the same extensions) out. */
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;

function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Splits text into runs of word characters and runs of CJK characters; everything else separates. */
function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  let current: Run | null = null;
  for (const char of normalize(text)) {
    const kind = !LETTER_OR_DIGIT.test(char) ? null : CJK.test(char) ? 'cjk' : 'word';
    if (kind === null) {
      current = null;
      continue;
    }
    // A combining mark continues whatever run it follows.
    if (current && (current.kind === kind || /\p{M}/u.test(char))) {
      current.text += char;
      continue;
    }
    current = { kind, text: char };
    runs.push(current);
  }
  return runs;
}

function cutWord(word: string): string {
  return Array.from(word).slice(0, MAX_WORD_LENGTH).join('');
}

/** Quotes a lexeme for a tsvector/tsquery literal: no input can end the quote or add an operator. */
function quote(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The tsvector literal of a post (title and content), for `search_vector`. */
export function forumSearchVector(title: string, content: string): string {
  const positions = new Map<string, number[]>();
  let position = 1;
  const add = (lexeme: string): void => {
    const at = Math.min(position, MAX_SEARCH_POSITION);
    position += 1;
    const list = positions.get(lexeme);
    if (!list) positions.set(lexeme, [at]);
    else if (list.length < MAX_POSITIONS_PER_LEXEME && list[list.length - 1] !== at) list.push(at);
  };
  for (const run of [...runsOf(title), ...runsOf(content)]) {
    if (run.kind === 'word') {
      add(cutWord(run.text));
      continue;
    }
    const chars = Array.from(run.text);
    for (let i = 0; i + 1 < chars.length; i += 1) add(`${chars[i]}${chars[i + 1]}`);
    // The last character alone, so a one-character query finds it at the end of a run too.
    add(chars[chars.length - 1] ?? '');
  }
  return Array.from(positions, ([lexeme, at]) => `${quote(lexeme)}:${at.join(',')}`).join(' ');
}

/**
 * The tsquery literal of a search text: every word must occur (AND). A word is a prefix
 * ('algo':*); a CJK run of two or more characters is the phrase of its bigrams; one CJK character
 * is a prefix, so it matches the bigrams it starts and the unigram at a run's end. Null when the
 * text has nothing to search for (the caller then lists without searching).
 */
export function forumSearchQuery(text: string): string | null {
  const terms: string[] = [];
  for (const run of runsOf(text)) {
    if (run.kind === 'word') {
      terms.push(`${quote(cutWord(run.text))}:*`);
      continue;
    }
    const chars = Array.from(run.text);
    if (chars.length === 1) {
      terms.push(`${quote(run.text)}:*`);
      continue;
    }
    const bigrams: string[] = [];
    for (let i = 0; i + 1 < chars.length; i += 1) bigrams.push(quote(`${chars[i]}${chars[i + 1]}`));
    terms.push(bigrams.length === 1 ? (bigrams[0] ?? '') : `(${bigrams.join(' <-> ')})`);
  }
  return terms.length === 0 ? null : terms.join(' & ');
}
