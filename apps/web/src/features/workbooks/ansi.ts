/*
 * Terminal text from the kernel as it would look in a terminal, without colour: IPython colours its
 * tracebacks with ANSI escapes, and progress bars redraw their line with carriage returns.
 */

// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and two-byte escapes.
// eslint-disable-next-line no-control-regex -- ANSI escapes are made of control characters (ESC, BEL).
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Each line as a terminal leaves it: what follows the last lone carriage return overwrites it. */
export function collapseCarriageReturns(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      let shown = '';
      for (const part of parts) shown = part + shown.slice(part.length);
      return shown;
    })
    .join('\n');
}

/** What a stream or traceback shows: no escapes, progress redraws settled. */
export function terminalText(text: string): string {
  return collapseCarriageReturns(stripAnsi(text));
}
