import { describe, expect, it } from 'vitest';
import { compareSubmissions, joinSubmissionFiles, type SimilaritySubmission } from './compare.ts';
import { DISGUISED_COPY, HONEST_A, HONEST_B, ORIGINAL, STARTER } from './fixtures.ts';
import { tokenizePython } from './python-tokens.ts';

const submission = (id: number, content: string): SimilaritySubmission => ({
  submission_id: id,
  user_id: 100 + id,
  course_id: 1,
  content,
});

const tokens = (text: string) => tokenizePython(text).map((t) => t.token);

describe('tokenizePython', () => {
  it('writes names, numbers and strings alike, so renaming changes nothing', () => {
    expect(tokens('total = count + 1  # add\n')).toEqual(tokens('s = n + 42\n'));
    expect(tokens('x = "a"\n')).toEqual(tokens("y = f'{b}'\n"));
    expect(tokens('total = count + 1\n')).toEqual(['ID', '=', 'ID', '+', 'NUM', 'NEWLINE']);
  });

  it('keeps keywords, builtins, operators and the block structure', () => {
    const text = 'def f(a):\n    for i in range(a):\n        a **= 2\n    return a\n';
    expect(tokens(text)).toEqual(
      ['def', 'ID', '(', 'ID', ')', ':', 'NEWLINE', 'INDENT', 'for', 'ID', 'in', 'range', '(', 'ID', ')']
        .concat([':', 'NEWLINE', 'INDENT', 'ID', '**=', 'NUM', 'NEWLINE', 'DEDENT', 'return', 'ID'])
        .concat(['NEWLINE', 'DEDENT']),
    );
  });

  it('reads strings over lines, brackets over lines and continuations as one logical line', () => {
    const text = 'x = """a\nb"""\ny = (1,\n     2)\nz = 1 + \\\n    2\n';
    expect(tokens(text)).toEqual(
      ['ID', '=', 'STR', 'NEWLINE', 'ID', '=', '(', 'NUM', ',', 'NUM', ')', 'NEWLINE'].concat([
        'ID',
        '=',
        'NUM',
        '+',
        'NUM',
        'NEWLINE',
      ]),
    );
    const [, , literal] = tokenizePython(text);
    expect(literal?.span).toEqual({ startRow: 0, startCol: 4, endRow: 1, endCol: 4 });
  });

  it('never throws on broken code', () => {
    for (const text of ['"unterminated\n', 'def (:\n\t  x', '\\', '0x', 'é = ½ ∑ 🐍\n']) {
      expect(() => tokenizePython(text)).not.toThrow();
    }
  });
});

describe('compareSubmissions', () => {
  const input = {
    submissions: [
      submission(1, ORIGINAL),
      submission(2, DISGUISED_COPY),
      submission(3, HONEST_A),
      submission(4, HONEST_B),
      submission(5, STARTER),
    ],
    boilerplate: [STARTER],
  };
  const result = compareSubmissions(input);
  const similarity = (a: number, b: number) =>
    result.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))?.similarity ?? 0;

  it('ranks a renamed and reordered copy above honest solutions of the same exercise', () => {
    const copy = similarity(0, 1);
    expect(copy).toBeGreaterThan(0.5);
    const honest: [number, number][] = [
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ];
    for (const [a, b] of honest) {
      expect(similarity(a, b)).toBeLessThan(copy / 2);
    }
    expect(result.pairs[0]).toMatchObject({ a: 0, b: 1 });
  });

  it('describes the top pair by its fragments, longest fragment and overlap', () => {
    const top = result.pairs[0]!;
    expect(top.fragments.length).toBeGreaterThan(1);
    expect(top.longest_tokens).toBeGreaterThan(30);
    expect(top.longest_lines).toBeGreaterThan(3);
    expect(top.overlap_tokens).toBeGreaterThanOrEqual(top.longest_tokens);
    // The median function: lines 19-24 of the original, lines 25-30 of the copy.
    expect(top.fragments).toContainEqual(
      expect.objectContaining({
        left: expect.objectContaining({ start_line: expect.toSatisfy((n: number) => n >= 18 && n <= 20) }),
        right: expect.objectContaining({ start_line: expect.toSatisfy((n: number) => n >= 24 && n <= 26) }),
      }),
    );
  });

  it('scores the starter code alone 0 against everyone, and boilerplate never matches', () => {
    for (const other of [0, 1, 2, 3]) expect(similarity(4, other)).toBe(0);
    const withoutTemplate = compareSubmissions({ ...input, boilerplate: [] });
    const starterPairs = withoutTemplate.pairs.filter((p) => p.a === 4 || p.b === 4);
    expect(starterPairs.length).toBeGreaterThan(0);
  });

  it('keeps at most maxPairs pairs, counts the rest, and keeps the token counts', () => {
    const capped = compareSubmissions(input, { maxPairs: 2 });
    expect(capped.pairs).toHaveLength(2);
    expect(capped.pair_count).toBe(result.pair_count);
    expect(result.submissions.map((s) => s.tokens).every((n) => n > 50)).toBe(true);
  });

  it('compares nothing to nothing without failing', () => {
    expect(compareSubmissions({ submissions: [], boilerplate: [STARTER] }).pairs).toEqual([]);
    expect(compareSubmissions({ submissions: [submission(1, '')], boilerplate: [''] }).pair_count).toBe(0);
  });
});

describe('joinSubmissionFiles', () => {
  it('keeps one file as it is and joins several Python files by name under header comments', () => {
    expect(joinSubmissionFiles([{ filename: 'main.py', content: 'x = 1' }])).toBe('x = 1');
    const joined = joinSubmissionFiles([
      { filename: 'util.py', content: 'y = 2\n' },
      { filename: 'data.csv', content: 'a,b' },
      { filename: 'main.py', content: 'x = 1' },
    ]);
    expect(joined).toBe('# ==== main.py ====\nx = 1\n# ==== util.py ====\ny = 2\n');
  });
});
