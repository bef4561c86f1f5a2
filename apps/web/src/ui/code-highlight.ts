import { classHighlighter, highlightCode } from '@lezer/highlight';
import type { LRParser } from '@lezer/lr';

/**
 * Highlighting of fenced code in posts and statements, with the parser the code editor is built on (not
 * the editor itself: a page that shows Markdown does not download CodeMirror). Python through its real
 * (Lezer) parser, a few other languages through a small lexer that finds comments, strings, numbers
 * and keywords. The output is text escaped here plus
 * `<span class="tok-…">`; it still goes through the sanitiser with the rest of the Markdown.
 */

/**
 * The Python parser (with Lezer's LR runtime, about 30 kB compressed) loads once a page shows a fence
 * that may hold Python (`loadPythonHighlighting`); until then such a fence is shown plain.
 */
let pythonParser: LRParser | null = null;
let loadingPython: Promise<void> | null = null;

export function isPythonHighlightingLoaded(): boolean {
  return pythonParser !== null;
}

export function loadPythonHighlighting(): Promise<void> {
  loadingPython ??= import('@lezer/python').then(
    (module) => {
      pythonParser = module.parser;
    },
    (error: unknown) => {
      loadingPython = null;
      throw error;
    },
  );
  return loadingPython;
}

/**
 * Whether `markdown` opens a fence that would be highlighted as Python (``` or ~~~ with no language or a
 * Python one), also inside lists and quotes. A false alarm only loads the parser.
 */
export function mayHavePythonFence(markdown: string): boolean {
  let open: string | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^[ \t>]*(`{3,}|~{3,})[ \t]*([^\s`]*)/.exec(line);
    if (!fence) continue;
    const [, marker = '', name = ''] = fence;
    if (open === null) {
      if (PYTHON.has(name.toLowerCase())) return true;
      open = marker;
    } else if (marker[0] === open[0] && marker.length >= open.length && name === '') {
      open = null;
    }
  }
  return false;
}

/** Past this a block is shown plain: highlighting is a nicety, not worth a frozen page. */
export const MAX_HIGHLIGHTED_CHARS = 20_000;

const PYTHON = new Set(['', 'python', 'py', 'python3', 'py3']);

const C_LIKE_KEYWORDS =
  'if else for while do switch case default break continue return goto sizeof typedef struct union enum const static extern void char short int long float double signed unsigned bool true false null new delete class public private protected this throw try catch';
const LANGUAGES: Record<string, { keywords: string; lineComment: string; blockComments: boolean }> = {
  c: { keywords: C_LIKE_KEYWORDS, lineComment: '//', blockComments: true },
  cpp: {
    keywords: `${C_LIKE_KEYWORDS} namespace using template typename auto nullptr virtual override`,
    lineComment: '//',
    blockComments: true,
  },
  java: {
    keywords: `${C_LIKE_KEYWORDS} import package extends implements interface final abstract var`,
    lineComment: '//',
    blockComments: true,
  },
  javascript: {
    keywords: `${C_LIKE_KEYWORDS} function var let import export from async await yield of in typeof instanceof undefined`,
    lineComment: '//',
    blockComments: true,
  },
  typescript: {
    keywords: `${C_LIKE_KEYWORDS} function var let import export from async await yield of in typeof instanceof undefined type interface implements extends readonly keyof as`,
    lineComment: '//',
    blockComments: true,
  },
  sql: {
    keywords:
      'select from where and or not insert into values update set delete create table drop alter join left right inner outer on group by order having limit offset as null is in like distinct union',
    lineComment: '--',
    blockComments: true,
  },
  bash: {
    keywords: 'if then else elif fi for while do done case esac function in return export local echo exit',
    lineComment: '#',
    blockComments: false,
  },
};
const ALIASES: Record<string, string> = {
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  'c++': 'cpp',
  h: 'c',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
};

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function span(text: string, classes: string): string {
  return classes ? `<span class="${classes}">${escapeHtml(text)}</span>` : escapeHtml(text);
}

function highlightPython(code: string, parser: LRParser): string {
  let html = '';
  highlightCode(
    code,
    parser.parse(code),
    classHighlighter,
    (text, classes) => {
      html += span(text, classes);
    },
    () => {
      html += '\n';
    },
  );
  return html;
}

function lexer(language: (typeof LANGUAGES)[string]): RegExp {
  const comment = language.lineComment.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
  const parts = [
    `(?<comment>${comment}[^\\n]*${language.blockComments ? '|/\\*[\\s\\S]*?(?:\\*/|$)' : ''})`,
    '(?<string>"(?:\\\\.|[^"\\\\\\n])*"?|\'(?:\\\\.|[^\'\\\\\\n])*\'?|`(?:\\\\.|[^`\\\\])*`?)',
    '(?<number>\\b\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b|\\b0[xX][\\da-fA-F]+\\b)',
    '(?<word>[A-Za-z_$][\\w$]*)',
  ];
  return new RegExp(parts.join('|'), 'g');
}

function highlightSimple(code: string, language: (typeof LANGUAGES)[string]): string {
  const keywords = new Set(language.keywords.split(' '));
  const caseless = language === LANGUAGES.sql;
  let html = '';
  let at = 0;
  for (const match of code.matchAll(lexer(language))) {
    const groups = match.groups ?? {};
    html += escapeHtml(code.slice(at, match.index));
    at = match.index + match[0].length;
    if (groups.comment !== undefined) html += span(match[0], 'tok-comment');
    else if (groups.string !== undefined) html += span(match[0], 'tok-string');
    else if (groups.number !== undefined) html += span(match[0], 'tok-number');
    else if (keywords.has(caseless ? match[0].toLowerCase() : match[0]))
      html += span(match[0], 'tok-keyword');
    else html += escapeHtml(match[0]);
  }
  return html + escapeHtml(code.slice(at));
}

/**
 * The highlighted HTML of a fenced block (inside markdown-it's `<pre><code>`), or '' to let
 * markdown-it escape it plainly: an unknown language, a block too long to be worth it, or Python
 * when not asked for (`python`) or before its parser has loaded.
 */
export function highlightFence(code: string, info: string, python: boolean): string {
  if (code.length > MAX_HIGHLIGHTED_CHARS) return '';
  const name = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (PYTHON.has(name)) return python && pythonParser ? highlightPython(code, pythonParser) : '';
  const language = LANGUAGES[ALIASES[name] ?? name];
  return language ? highlightSimple(code, language) : '';
}
