import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlightFence, isPythonHighlightingLoaded } from './code-highlight.ts';

/**
 * Markdown for statements and forum posts: raw HTML in the source is shown as text (`html: false`),
 * and the rendered HTML is sanitised again by DOMPurify, so neither a `<script>`, an `onerror` nor a
 * `javascript:` link reaches the page even if the parser let one through. Fenced code is highlighted
 * (Python unless the fence names another language) into `<span class="tok-…">`, which the sanitiser
 * keeps (`class` is allowed) and Markdown.module.css colours for each scheme.
 */
const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: false,
  breaks: false,
  highlight: (code, language) => highlightFence(code, language, highlightPython),
});

/**
 * Markdown headings start at h3: the page has its h1 and the section showing the text its h2, so a
 * statement's `# Title` must not become a second h1.
 */
const HEADING_OFFSET = 2;
markdown.renderer.rules.heading_open = (tokens, index, options, _env, self) => {
  const token = tokens[index]!;
  const level = Math.min(6, Number(token.tag.slice(1)) + HEADING_OFFSET);
  token.tag = `h${level}`;
  return self.renderToken(tokens, index, options);
};
markdown.renderer.rules.heading_close = (tokens, index, options, _env, self) => {
  const token = tokens[index]!;
  const level = Math.min(6, Number(token.tag.slice(1)) + HEADING_OFFSET);
  token.tag = `h${level}`;
  return self.renderToken(tokens, index, options);
};

const purifier = DOMPurify();
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    // Links leave the app in a new tab, without handing it `window.opener` or the page address.
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

// markdown-it calls `highlight` during `render`, which is synchronous: set for that call only.
let highlightPython = false;

/**
 * Sanitised HTML of `source`. Python fences are highlighted when `python` is true (the default: when
 * its parser has loaded, see code-highlight.ts), else shown plain.
 */
export function renderMarkdown(source: string, { python = isPythonHighlightingLoaded() } = {}): string {
  highlightPython = python;
  try {
    return sanitizeHtml(markdown.render(source));
  } finally {
    highlightPython = false;
  }
}

const LANGUAGE_CLASS = /(?:^|\s)language-(\S+)/u;

/**
 * Highlights, in place, the Python fences of Markdown rendered while the parser was still loading. The
 * rest of the text keeps its elements: rendering it again would replace every paragraph, and the page's
 * largest paint (often a statement's paragraph) would move to the moment the parser arrived. Blocks
 * that have markup already (highlighted, or another language's) are left as they are.
 */
export function highlightPythonFences(root: ParentNode): void {
  if (!isPythonHighlightingLoaded()) return;
  for (const code of root.querySelectorAll('pre > code')) {
    if (code.childElementCount > 0) continue;
    // markdown-it names the fence's language in the class, as it passes it to `highlight`.
    const info = LANGUAGE_CLASS.exec(code.className)?.[1] ?? '';
    const html = highlightFence(code.textContent, info, true);
    if (html !== '') code.innerHTML = sanitizeHtml(html);
  }
}

/** HTML made safe to insert: no scripts, handlers, `javascript:` URLs, styles or form controls. */
export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
}
