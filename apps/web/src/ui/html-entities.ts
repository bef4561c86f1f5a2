// Stands in for the `entities` package inside markdown-it (vite-import-swaps.ts). markdown-it asks
// it only one thing: what a named character reference such as `&copy;` stands for. The package answers
// from its own copy of HTML's table of 2,231 names, 14 KB (brotli) on every page that shows Markdown;
// the browser has the same table in its HTML parser, so this asks the parser.

const NAMED_REFERENCE = /^&[a-z][a-z0-9]{1,31};$/iu;

let area: HTMLTextAreaElement | null = null;

/**
 * The text a named character reference (`&name;`, semicolon included) stands for, or the reference
 * itself when HTML does not define that name, as `entities`' strict decoder answers.
 */
export function decodeHTMLStrict(reference: string): string {
  if (!NAMED_REFERENCE.test(reference)) return reference;
  // A textarea's content is text to the parser (no element is made, nothing runs): only references decode.
  area ??= document.createElement('textarea');
  area.innerHTML = reference;
  const decoded = area.value;
  // The parser also reads a few names without their semicolon (`&not` in `&notit;`): what is left
  // after such a prefix is not decoded, so the whole reference was not one HTML defines.
  return decoded.endsWith(';') && reference !== '&semi;' ? reference : decoded;
}
