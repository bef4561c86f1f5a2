import { describe, expect, it } from 'vitest';
import { collapseCarriageReturns, stripAnsi, terminalText } from './ansi.ts';
import { tracebackText } from './outputs.ts';

describe('ANSI text', () => {
  it('strips the colours IPython puts in a traceback', () => {
    const line = '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero\u001b[1;32m\u001b[0m';
    expect(stripAnsi(line)).toBe('ZeroDivisionError: division by zero');
    expect(stripAnsi('\u001b]8;;https://x\u0007link\u001b]8;;\u0007 \u001b[38;5;208mo\u001b[39m')).toBe(
      'link o',
    );
    expect(tracebackText(['\u001b[31mTraceback\u001b[0m', 'line'])).toBe('Traceback\nline');
  });

  it('lets a carriage return overwrite the line, as a progress bar does', () => {
    expect(collapseCarriageReturns('10%\r50%\r100%\ndone\r\n')).toBe('100%\ndone\n');
    expect(collapseCarriageReturns('abcdef\rXY')).toBe('XYcdef');
    expect(terminalText('\u001b[32m1/3\u001b[0m\r3/3')).toBe('3/3');
  });
});
