/** A file of one side of a comparison: a submitted file, or the reference solution as the entry file. */
export interface ComparedFile {
  filename: string;
  /** Null when it is not text (a binary upload). */
  content: string | null;
}

/** A file name with the file of each side that has it (null on the side without it). */
export interface FilePair {
  filename: string;
  left: ComparedFile | null;
  right: ComparedFile | null;
}

/** What the right side shows: another submission, or the assignment's reference solution. */
export type CompareWith = number | 'reference';

/** `?with=` of the compare page: a submission id, `reference`, or null for anything else. */
export function parseCompareWith(value: string | null): CompareWith | null {
  if (value === 'reference') return value;
  if (value === null || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/**
 * The files of two sides matched by name: the left side's in its order, then those only on the right.
 * A file on one side only is compared with nothing (all added, or all removed).
 */
export function pairFilesByName(left: readonly ComparedFile[], right: readonly ComparedFile[]): FilePair[] {
  const rightByName = new Map(right.map((file) => [file.filename, file]));
  const pairs: FilePair[] = left.map((file) => ({
    filename: file.filename,
    left: file,
    right: rightByName.get(file.filename) ?? null,
  }));
  const leftNames = new Set(left.map((file) => file.filename));
  for (const file of right) {
    if (!leftNames.has(file.filename)) pairs.push({ filename: file.filename, left: null, right: file });
  }
  return pairs;
}

/**
 * What to compare a submission with when the address does not say: the one its author made just before
 * it (else just after), or the reference solution when there is no other and the reader may see it.
 * `newestFirst`: the author's submissions to the assignment, newest first.
 */
export function defaultCompareWith(
  submissionId: number,
  newestFirst: readonly { id: number }[],
  canSeeReference: boolean,
): CompareWith | null {
  const index = newestFirst.findIndex((submission) => submission.id === submissionId);
  const other = index === -1 ? newestFirst[0] : (newestFirst[index + 1] ?? newestFirst[index - 1]);
  if (other) return other.id;
  return canSeeReference ? 'reference' : null;
}
