/**
 * A small Python lexer for the similarity report (docs/similarity.md). Dolos compares token streams; its
 * own tokenizer needs tree-sitter's native grammars, so this one is written here instead. It keeps what
 * copying does not change — keywords, operators, brackets, builtins, the block structure (NEWLINE,
 * INDENT, DEDENT) — and writes every other name as `ID`, every number as `NUM` and every string as
 * `STR`, so a copy with renamed variables or changed messages still matches. Comments are dropped.
 */

/** 0-based rows and columns, end exclusive: the shape of dolos-core's `Region`. */
export interface TokenSpan {
  startRow: number;
  startCol: number;
  endRow: number;
  endCol: number;
}

export interface PythonToken {
  token: string;
  span: TokenSpan;
}

const KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

/** Builtins a renaming leaves alone; keeping them makes matches more specific. */
const BUILTINS = new Set(
  (
    'abs all bool dict divmod enumerate filter float format input int isinstance len list map max min ' +
    'open ord chr pow print range repr reversed round set sorted str sum super tuple type zip'
  ).split(' '),
);

/** Longest first, so `**=` wins over `**` and `*`. */
const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '**',
  '//',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 't', 'br', 'rb', 'fr', 'rf', 'tr', 'rt']);
const OPENING = new Set(['(', '[', '{']);
const CLOSING = new Set([')', ']', '}']);
const NUMBER =
  /0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?/y;
const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

/** The tokens of a Python source; never throws, whatever the text (broken code is still compared). */
export function tokenizePython(text: string): PythonToken[] {
  const tokens: PythonToken[] = [];
  const indents = [0];
  let i = 0;
  let row = 0;
  let col = 0;
  let depth = 0;
  let atLineStart = true;
  let logicalLineOpen = false;

  const emit = (token: string, startRow: number, startCol: number) => {
    tokens.push({ token, span: { startRow, startCol, endRow: row, endCol: col } });
    if (token !== 'NEWLINE' && token !== 'INDENT' && token !== 'DEDENT') logicalLineOpen = true;
  };
  // Moves over text[i, end), keeping row and column.
  const advance = (end: number) => {
    for (; i < end; i++) {
      if (text.charAt(i) === '\n') {
        row++;
        col = 0;
      } else {
        col++;
      }
    }
  };

  while (i < text.length) {
    if (atLineStart && depth === 0) {
      let width = 0;
      let j = i;
      for (
        ;
        j < text.length && (text.charAt(j) === ' ' || text.charAt(j) === '\t' || text.charAt(j) === '\f');
        j++
      ) {
        width = text.charAt(j) === '\t' ? (Math.floor(width / 8) + 1) * 8 : width + 1;
      }
      advance(j);
      atLineStart = false;
      const next = text.charAt(i);
      // Blank and comment-only lines say nothing about blocks.
      if (next === '' || next === '\n' || next === '\r' || next === '#') continue;
      if (width > (indents.at(-1) ?? 0)) {
        indents.push(width);
        emit('INDENT', row, col);
      }
      while (width < (indents.at(-1) ?? 0)) {
        indents.pop();
        emit('DEDENT', row, col);
      }
    }
    const c = text.charAt(i);
    if (c === '\n') {
      if (depth === 0 && logicalLineOpen) {
        emit('NEWLINE', row, col);
        logicalLineOpen = false;
      }
      advance(i + 1);
      atLineStart = true;
      continue;
    }
    if (
      c === '\\' &&
      (text.charAt(i + 1) === '\n' || (text.charAt(i + 1) === '\r' && text.charAt(i + 2) === '\n'))
    ) {
      advance(text.charAt(i + 1) === '\n' ? i + 2 : i + 3);
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      advance(i + 1);
      continue;
    }
    if (c === '#') {
      const end = text.indexOf('\n', i);
      advance(end === -1 ? text.length : end);
      continue;
    }
    const startRow = row;
    const startCol = col;
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < text.length && NAME_PART.test(text.charAt(j))) j++;
      const word = text.slice(i, j);
      if ((text.charAt(j) === '"' || text.charAt(j) === "'") && STRING_PREFIXES.has(word.toLowerCase())) {
        advance(stringEnd(text, j));
        emit('STR', startRow, startCol);
        continue;
      }
      advance(j);
      emit(KEYWORDS.has(word) || BUILTINS.has(word) ? word : 'ID', startRow, startCol);
      continue;
    }
    if (c === '"' || c === "'") {
      advance(stringEnd(text, i));
      emit('STR', startRow, startCol);
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text.charAt(i + 1)))) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      advance(match ? i + match[0].length : i + 1);
      emit('NUM', startRow, startCol);
      continue;
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, i)) ?? c;
    if (OPENING.has(operator)) depth++;
    if (CLOSING.has(operator) && depth > 0) depth--;
    advance(i + operator.length);
    emit(operator, startRow, startCol);
  }
  if (logicalLineOpen) emit('NEWLINE', row, col);
  while (indents.length > 1) {
    indents.pop();
    emit('DEDENT', row, col);
  }
  return tokens;
}

/** Where the string literal whose quote is at `quoteAt` ends (exclusive); unterminated: at its line's end. */
function stringEnd(text: string, quoteAt: number): number {
  const quote = text.charAt(quoteAt);
  const triple = text.startsWith(quote.repeat(3), quoteAt);
  const close = triple ? quote.repeat(3) : quote;
  let j = quoteAt + close.length;
  while (j < text.length) {
    const c = text.charAt(j);
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (!triple && c === '\n') return j;
    if (text.startsWith(close, j)) return j + close.length;
    j++;
  }
  return text.length;
}
