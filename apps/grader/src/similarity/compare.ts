/**
 * Dolos over a set of submissions (docs/similarity.md): winnowed k-gram fingerprints of each
 * submission's tokens, the boilerplate's fingerprints ignored, then every pair scored. Only the most
 * similar pairs are kept, with their matched fragments; the rest are counted.
 */
import { File, FingerprintIndex, Region, TokenizedFile, type Fragment, type Pair } from '@dodona/dolos-core';
import {
  MAX_SIMILARITY_FRAGMENTS,
  MAX_SIMILARITY_PAIRS,
  type SimilarityFragment,
  type StoredSimilarityPair,
  type StoredSimilarityResult,
} from '@kadai/contracts';
import { tokenizePython } from './python-tokens.ts';

export interface SimilaritySubmission {
  submission_id: number;
  user_id: number;
  course_id: number;
  /** The submission's Python files joined (`joinSubmissionFiles`). */
  content: string;
}

/** What a report compares: a snapshot taken when it was asked for. */
export interface SimilarityInput {
  submissions: SimilaritySubmission[];
  /** Starter code, the teacher's files and tests: code every student was given. */
  boilerplate: string[];
}

export interface CompareOptions {
  /**
   * Tokens per fingerprint. Dolos defaults to 23 over tree-sitter's syntax trees, which write about
   * three tokens for every lexical one; 12 lexical tokens (about a line and a half) is the same reach.
   */
  kgramLength?: number;
  kgramsInWindow?: number;
  maxPairs?: number;
  maxFragments?: number;
}

export const DEFAULT_KGRAM_LENGTH = 12;
export const DEFAULT_KGRAMS_IN_WINDOW = 8;

function tokenizedFile(path: string, content: string): TokenizedFile {
  const tokens: string[] = [];
  const mapping: Region[] = [];
  for (const { token, span } of tokenizePython(content)) {
    tokens.push(token);
    mapping.push(new Region(span.startRow, span.startCol, span.endRow, span.endCol));
  }
  return new TokenizedFile(new File(path, content), tokens, mapping);
}

/** The first and last token of a fragment on one side. */
function tokenRange(fragment: Fragment, side: 'left' | 'right'): [number, number] {
  const first = fragment.pairs.at(0)?.[side].start ?? 0;
  return [first, fragment.pairs.at(-1)?.[side].stop ?? first];
}

/** A fragment in 1-based lines on each side, and how many tokens it spans on the left. */
function describeFragment(fragment: Fragment): SimilarityFragment {
  const [first, last] = tokenRange(fragment, 'left');
  return {
    left: { start_line: fragment.leftSelection.startRow + 1, end_line: fragment.leftSelection.endRow + 1 },
    right: { start_line: fragment.rightSelection.startRow + 1, end_line: fragment.rightSelection.endRow + 1 },
    tokens: last - first + 1,
  };
}

/** Tokens inside at least one fragment on one side (fragments may overlap). */
function coveredTokens(fragments: Fragment[], side: 'left' | 'right'): number {
  const ranges = fragments.map((f) => tokenRange(f, side)).sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let reach = -1;
  for (const [start, stop] of ranges) {
    if (stop <= reach) continue;
    covered += stop - Math.max(start, reach + 1) + 1;
    reach = stop;
  }
  return covered;
}

function describePair(a: number, b: number, pair: Pair, maxFragments: number): StoredSimilarityPair {
  const fragments = pair.buildFragments();
  const described = fragments.map(describeFragment);
  const longest = described.reduce<SimilarityFragment | null>(
    (best, f) => (best === null || f.tokens > best.tokens ? f : best),
    null,
  );
  const kept = [...described]
    .sort((x, y) => y.tokens - x.tokens)
    .slice(0, maxFragments)
    .sort((x, y) => x.left.start_line - y.left.start_line);
  return {
    a,
    b,
    similarity: Math.min(1, Math.max(0, pair.similarity)),
    longest_tokens: longest?.tokens ?? 0,
    longest_lines: longest ? longest.left.end_line - longest.left.start_line + 1 : 0,
    overlap_tokens: Math.max(coveredTokens(fragments, 'left'), coveredTokens(fragments, 'right')),
    fragments: kept,
  };
}

/**
 * The comparison in steps: it yields after tokenizing and after each submission's row of pairs, so a
 * caller on a busy event loop (the API's embedded grader) can let other work run in between.
 */
function* comparing(
  input: SimilarityInput,
  options: CompareOptions,
): Generator<void, StoredSimilarityResult> {
  const kgramLength = options.kgramLength ?? DEFAULT_KGRAM_LENGTH;
  const kgramsInWindow = options.kgramsInWindow ?? DEFAULT_KGRAMS_IN_WINDOW;
  const maxPairs = options.maxPairs ?? MAX_SIMILARITY_PAIRS;
  const maxFragments = options.maxFragments ?? MAX_SIMILARITY_FRAGMENTS;

  const index = new FingerprintIndex(kgramLength, kgramsInWindow, false);
  const files = input.submissions.map((s) => tokenizedFile(`submission-${s.submission_id}`, s.content));
  index.addFiles(files);
  // Added after the submissions, as Dolos does: each fingerprint of the template is then ignored everywhere.
  input.boilerplate.forEach((text, n) => index.addIgnoredFile(tokenizedFile(`boilerplate-${n}`, text)));
  yield;

  // Every pair is scored, but only the scores are kept until the most similar ones are known.
  const scored: { a: number; b: number; similarity: number }[] = [];
  for (const [a, left] of files.entries()) {
    for (const [offset, right] of files.slice(a + 1).entries()) {
      const similarity = index.getPair(left, right).similarity;
      if (similarity > 0) scored.push({ a, b: a + 1 + offset, similarity });
    }
    yield;
  }
  scored.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
  const pairs: StoredSimilarityPair[] = [];
  for (const { a, b } of scored.slice(0, maxPairs)) {
    const left = files[a];
    const right = files[b];
    if (left && right) pairs.push(describePair(a, b, index.getPair(left, right), maxFragments));
    if (pairs.length % 100 === 0) yield;
  }

  return {
    submissions: input.submissions.map((s, n) => ({
      submission_id: s.submission_id,
      user_id: s.user_id,
      course_id: s.course_id,
      tokens: files[n]?.tokens.length ?? 0,
    })),
    pairs,
    pair_count: scored.length,
    kgram_length: kgramLength,
    kgrams_in_window: kgramsInWindow,
  };
}

/** Compares every pair of submissions at once; deterministic for the same input. */
export function compareSubmissions(
  input: SimilarityInput,
  options: CompareOptions = {},
): StoredSimilarityResult {
  const steps = comparing(input, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The same comparison, giving the event loop a turn every `sliceMs` of work. */
export async function compareSubmissionsInTurns(
  input: SimilarityInput,
  options: CompareOptions = {},
  sliceMs = 20,
): Promise<StoredSimilarityResult> {
  const steps = comparing(input, options);
  let sliceStarted = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStarted >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
}

/** A submission's files as one text: Python files only (all files when there is none), by name. */
export function joinSubmissionFiles(files: { filename: string; content: string }[]): string {
  const python = files.filter((f) => f.filename.endsWith('.py'));
  const chosen = (python.length > 0 ? python : files).sort((x, y) => x.filename.localeCompare(y.filename));
  const [only] = chosen;
  if (only && chosen.length === 1) return only.content;
  // Comments are not tokens, so the headers never match; they only tell the reader where a file starts.
  return chosen.map((f) => `# ==== ${f.filename} ====\n${f.content.replace(/\n?$/, '\n')}`).join('');
}
