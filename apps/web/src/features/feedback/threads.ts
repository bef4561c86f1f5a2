import type { RegradeRequest, ReviewComment } from '@kadai/contracts';

/** A comment on lines of a file and the replies to it, oldest first. */
export interface Thread {
  root: ReviewComment;
  replies: ReviewComment[];
}

const byTime = (a: ReviewComment, b: ReviewComment) =>
  a.created_at.localeCompare(b.created_at) || a.id - b.id;

/** The threads of a review in reading order: by file, then by the line they end on, then by time. */
export function threadsOf(comments: readonly ReviewComment[]): Thread[] {
  const roots = comments.filter((comment) => comment.parent_id === null);
  return roots
    .map((root) => ({
      root,
      replies: comments.filter((comment) => comment.parent_id === root.id).sort(byTime),
    }))
    .sort(
      (a, b) =>
        a.root.filename.localeCompare(b.root.filename) ||
        a.root.line_end - b.root.line_end ||
        byTime(a.root, b.root),
    );
}

/** A file's lines, without the empty one after a final newline. */
export function linesOf(content: string): string[] {
  const lines = content.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** Lines `from`..`to` (1-based, inclusive) of a file, then the threads that end on line `to`. */
export interface CodeSegment {
  from: number;
  to: number;
  threads: Thread[];
}

/**
 * A file cut after each line a thread ends on, so each thread reads right below its code. A thread past
 * the end of the file (the file changed since) follows the last line.
 */
export function segmentsOf(lineCount: number, threads: readonly Thread[]): CodeSegment[] {
  const last = Math.max(lineCount, 1);
  const anchorOf = (thread: Thread) => Math.min(Math.max(thread.root.line_end, 1), last);
  const anchors = [...new Set(threads.map(anchorOf))].sort((a, b) => a - b);
  const segments: CodeSegment[] = [];
  let from = 1;
  for (const to of anchors) {
    segments.push({ from, to, threads: threads.filter((thread) => anchorOf(thread) === to) });
    from = to + 1;
  }
  if (from <= lineCount) segments.push({ from, to: lineCount, threads: [] });
  return segments;
}

/** Whether line `line` is one a thread is about. */
export function isCommented(line: number, threads: readonly Thread[]): boolean {
  return threads.some((thread) => thread.root.line_start <= line && line <= thread.root.line_end);
}

/** The student's request about a rubric item or a thread, if they made one (one each at most). */
export function requestAbout(
  requests: readonly RegradeRequest[],
  about: { rubricItemId: number } | { commentId: number },
): RegradeRequest | undefined {
  return requests.find((request) =>
    'rubricItemId' in about
      ? request.rubric_item_id === about.rubricItemId
      : request.comment_id === about.commentId,
  );
}
