/** A search box's text as a LIKE pattern part: `%`, `_` and `\` are matched literally (backslash is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
