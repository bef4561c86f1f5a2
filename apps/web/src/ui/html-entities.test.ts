import { decodeHTMLStrict as reference } from 'entities';
import { describe, expect, it } from 'vitest';
import { markdownEntitiesTarget } from '../../vite-import-swaps.ts';
import { decodeHTMLStrict } from './html-entities.ts';
import { renderMarkdown } from './markdown.ts';

const NAMES = [
  // Common, and legacy names the parser also reads without a semicolon.
  ...['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&nbsp;', '&copy;', '&reg;', '&not;', '&notin;'],
  // Case matters: both spellings defined, one of two, neither.
  ...['&AMP;', '&Amp;', '&COPY;', '&Copy;', '&alpha;', '&Alpha;', '&ALPHA;'],
  // Two code points, and one outside the BMP (two UTF-16 units).
  ...['&NotEqualTilde;', '&fjlig;', '&nvlt;', '&ThickSpace;', '&Afr;', '&bopf;'],
  // The one whose text is a semicolon, and long names.
  ...['&semi;', '&CounterClockwiseContourIntegral;', '&DoubleLongLeftRightArrow;'],
  // Not defined: unknown, or a defined legacy prefix followed by more.
  ...['&foo;', '&notit;', '&ampx;', '&copyright;', '&ltx;', '&nbspx;', '&quotes;'],
];

// markdown-it asks only about one named reference at a time (numeric ones it decodes itself).
const NOT_ONE_NAME = ['&;', '&1;', 'amp;', '&amp', '&#65;', '&<b>;', '&amp;amp;', '&lt;b&gt;'];

describe("markdown-it's character references", () => {
  it.each(NAMES)('decodes %s as the entities package does', (name) => {
    expect(decodeHTMLStrict(name)).toBe(reference(name));
  });

  it.each(NOT_ONE_NAME)('leaves %s as it is', (text) => {
    expect(decodeHTMLStrict(text)).toBe(text);
  });

  it('is what markdown-it uses in the web build and tests, and only there', () => {
    const importer = '/x/node_modules/markdown-it/dist/markdown-it.mjs';
    expect(markdownEntitiesTarget('entities', importer)).toMatch(/src[\\/]ui[\\/]html-entities\.ts$/);
    expect(markdownEntitiesTarget('entities', '/x/node_modules/parse5/dist/index.js')).toBeNull();
    expect(markdownEntitiesTarget('mdurl', importer)).toBeNull();
    expect(renderMarkdown('&copy; &notit; &Afr; `&lt;`')).toBe(
      '<p>© &amp;notit; 𝔄 <code>&amp;lt;</code></p>\n',
    );
  });
});
