import { createHash } from 'node:crypto';

/*
 * The few pages the API itself answers a browser with inside the LMS's frame: a refused launch (its
 * HTTP status says what failed, and it moves on to the web app's page that explains it in the person's
 * language) and the end of a dynamic registration. Each carries its own Content-Security-Policy: no
 * scripts but the one whose hash it names, framed only by the registered LMS sites.
 */

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface HtmlPage {
  html: string;
  csp: string;
}

export function htmlPage(options: {
  title: string;
  message: string;
  frameOrigins: string[];
  /** Where the page moves on to (a path of the web app). */
  refreshTo?: string;
  script?: string;
}): HtmlPage {
  const scriptHash = options.script
    ? `'sha256-${createHash('sha256').update(options.script).digest('base64')}'`
    : "'none'";
  const ancestors = options.frameOrigins.length > 0 ? options.frameOrigins.join(' ') : "'none'";
  const refresh = options.refreshTo
    ? `<meta http-equiv="refresh" content="0;url=${escape(options.refreshTo)}">`
    : '';
  const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}<title>${escape(options.title)}</title><style>body{font-family:system-ui,sans-serif;margin:2rem;line-height:1.6;color:#1a1b1e;background:#fff}@media (prefers-color-scheme:dark){body{color:#e9ecef;background:#1a1b1e}}</style></head><body><main><h1>${escape(options.title)}</h1><p>${escape(options.message)}</p></main>${options.script ? `<script>${options.script}</script>` : ''}</body></html>`;
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${scriptHash}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return { html, csp };
}
