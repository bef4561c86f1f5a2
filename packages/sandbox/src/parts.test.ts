import { describe, expect, it } from 'vitest';
import { CappedOutput, wholeCharacterLength } from './capture.ts';
import { classifyLimit } from './classify.ts';
import { validateFiles } from './jobdir.ts';
import { parseLauncherReport } from './launcher.ts';
import { compileCollectPatterns, validateMountPoint, validateRelativePath } from './paths.ts';
import { resolveLimits } from './run.ts';
import { DEFAULT_LIMITS, SandboxRequestError } from './types.ts';

describe('file names', () => {
  it.each(['main.py', 'data/in.csv', 'a/b/c.txt', 'データ.txt', '.hidden', 'a..b'])('accepts %j', (name) => {
    expect(validateRelativePath(name)).toBe(name);
  });

  it.each(['', '../x', '/etc/x', 'a/../../x', 'a/./b', 'a//b', 'a/', 'a\0b', 'a\\b', 'tab\there', '..'])(
    'rejects %j',
    (name) => {
      expect(() => validateRelativePath(name)).toThrow(SandboxRequestError);
    },
  );

  it('rejects duplicates and a file that is also a directory', () => {
    expect(() =>
      validateFiles([
        { path: 'a', content: '' },
        { path: 'a', content: '' },
      ]),
    ).toThrow(/Duplicate/);
    expect(() =>
      validateFiles([
        { path: 'a', content: '' },
        { path: 'a/b', content: '' },
      ]),
    ).toThrow(/directory/);
  });

  it('allows extra mounts only at /data and /judge', () => {
    expect(validateMountPoint('/judge')).toBe('/judge');
    expect(validateMountPoint('/data/expected')).toBe('/data/expected');
    for (const bad of [
      '/usr',
      '/',
      '/data/../etc',
      '/datax',
      '/judge/',
      '/judge//x',
      'judge',
      '/tmp/judge',
    ]) {
      expect(() => validateMountPoint(bad), bad).toThrow(SandboxRequestError);
    }
  });
});

describe('collect patterns', () => {
  const match = (pattern: string, name: string) => compileCollectPatterns([pattern])[0]!.test(name);

  it('matches * and ? within one segment, everything else literally', () => {
    expect(match('*.txt', 'a.txt')).toBe(true);
    expect(match('*.txt', 'out/a.txt')).toBe(false);
    expect(match('out/*', 'out/a.txt')).toBe(true);
    expect(match('out/*', 'out/x/a.txt')).toBe(false);
    expect(match('r?.csv', 'r1.csv')).toBe(true);
    expect(match('a.txt', 'abtxt')).toBe(false);
    expect(match('(x)+[y].txt', '(x)+[y].txt')).toBe(true);
    expect(match('結果*.txt', '結果1.txt')).toBe(true);
  });

  it('rejects patterns that leave the job dir', () => {
    for (const bad of ['../*', '/etc/*', 'a/../../*', '']) {
      expect(() => compileCollectPatterns([bad]), bad).toThrow(SandboxRequestError);
    }
  });
});

describe('output capture', () => {
  it('keeps the cap, counts the rest and never ends in half a character', () => {
    const output = new CappedOutput(10);
    output.push(Buffer.from('あいう')); // 9 bytes
    output.push(Buffer.from('えお'));
    expect(output.truncated).toBe(true);
    expect(output.total).toBe(15);
    expect(output.text()).toBe('あいう');
  });

  it('finds whole characters', () => {
    expect(wholeCharacterLength(Buffer.from('ab'))).toBe(2);
    expect(wholeCharacterLength(Buffer.from('aあ').subarray(0, 3))).toBe(1);
    expect(wholeCharacterLength(Buffer.from('😀').subarray(0, 3))).toBe(0);
    expect(wholeCharacterLength(Buffer.from('😀'))).toBe(4);
  });
});

describe('launcher report', () => {
  const hex = (name: string) => Buffer.from(name).toString('hex');
  const patterns = compileCollectPatterns(['*.txt']);

  it('reads usage and files, and re-checks names and caps itself', () => {
    const report = Buffer.concat([
      Buffer.from(
        [
          'usage 12 3456',
          `file ${hex('a.txt')} 2`,
          `file ${hex('../b.txt')} 1`,
          `file ${hex('c.csv')} 1`,
          `skip ${hex('d.txt')}`,
          `file ${hex('e.txt')} 3`,
          'end',
          '',
        ].join('\n'),
      ),
      Buffer.from('AAbcEEE'),
    ]);
    const parsed = parseLauncherReport(report, patterns, 20, 4);
    expect(parsed.cpuMs).toBe(12);
    expect(parsed.memoryKb).toBe(3456);
    expect(parsed.files.map((f) => [f.path, Buffer.from(f.content).toString()])).toEqual([['a.txt', 'AA']]);
    expect(parsed.skipped).toEqual(['d.txt', 'e.txt']); // e.txt: over the 4-byte cap
  });

  it('returns nothing from a report that was cut short or is garbage', () => {
    expect(parseLauncherReport(Buffer.from('usage 1 2\nfile 61'), patterns, 20, 100).files).toEqual([]);
    expect(parseLauncherReport(Buffer.alloc(100_000, 0x41), patterns, 20, 100).files).toEqual([]);
  });
});

describe('limits', () => {
  it('fills in defaults and rejects nonsense', () => {
    expect(resolveLimits({ wallMs: 100 })).toEqual({ ...DEFAULT_LIMITS, wallMs: 100 });
    expect(() => resolveLimits({ cpuSeconds: 0 })).toThrow(SandboxRequestError);
    expect(() => resolveLimits({ memoryBytes: 1.5 })).toThrow(SandboxRequestError);
    expect(() => resolveLimits({ wallMs: Number.POSITIVE_INFINITY })).toThrow(SandboxRequestError);
  });

  it('names the limit from how the program died', () => {
    const base = {
      killedFor: null,
      signal: null,
      stderr: '',
      timeMs: 100,
      truncated: false,
      limits: DEFAULT_LIMITS,
    };
    expect(classifyLimit(base)).toBe(null);
    expect(classifyLimit({ ...base, killedFor: 'wall', signal: 'SIGKILL' })).toBe('wall');
    expect(classifyLimit({ ...base, signal: 'SIGXCPU' })).toBe('cpu');
    expect(classifyLimit({ ...base, signal: 'SIGKILL', timeMs: 3100 })).toBe('cpu');
    expect(classifyLimit({ ...base, signal: 'SIGKILL' })).toBe(null);
    expect(classifyLimit({ ...base, stderr: 'Traceback …\nMemoryError\n' })).toBe('memory');
    expect(classifyLimit({ ...base, stderr: 'numpy.core._exceptions._ArrayMemoryError: x' })).toBe('memory');
    expect(classifyLimit({ ...base, stderr: 'OSError: [Errno 27] File too large' })).toBe('file_size');
    expect(classifyLimit({ ...base, truncated: true })).toBe('output');
  });
});
