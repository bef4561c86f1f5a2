import { SandboxRequestError } from './types.ts';

const MAX_PATH_LENGTH = 255;

/**
 * Checks a path of a job file or a collected file: relative, no `..`, `.` or empty segment, no NUL or
 * backslash, no control characters. Returns the path unchanged; throws SandboxRequestError otherwise.
 * Rejecting instead of normalising keeps `a/../../x` from ever meaning something else than it says.
 */
export function validateRelativePath(path: string, what = 'file path'): string {
  const reason = relativePathProblem(path);
  if (reason) throw new SandboxRequestError(`Invalid ${what} ${JSON.stringify(path)}: ${reason}`);
  return path;
}

function relativePathProblem(path: string): string | null {
  if (typeof path !== 'string' || path.length === 0) return 'empty';
  if (path.length > MAX_PATH_LENGTH) return 'too long';
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return code === 0 ? 'NUL character' : 'control character';
  }
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/')) return 'absolute';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty segment';
    if (segment === '.' || segment === '..') return `"${segment}" segment`;
  }
  return null;
}

/** `/data`, `/judge` or below, in canonical form: extra read-only mounts go nowhere else. */
export function validateMountPoint(sandboxPath: string): string {
  const match = /^\/(data|judge)(\/.*)?$/.exec(sandboxPath);
  const rest = match?.[2];
  if (!match || (rest !== undefined && relativePathProblem(rest.slice(1)) !== null)) {
    throw new SandboxRequestError(
      `Invalid sandboxPath ${JSON.stringify(sandboxPath)}: must be /data, /judge or a plain path below them`,
    );
  }
  return sandboxPath;
}

/**
 * Turns a collect pattern into an anchored regular expression source that means the same in
 * JavaScript and in Python's `re`: `*` and `?` match within one segment, everything else is literal.
 */
export function collectPatternSource(pattern: string): string {
  validateRelativePath(pattern, 'collect pattern');
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (/[A-Za-z0-9_/]/.test(char) || char.charCodeAt(0) > 0x7f) source += char;
    else source += `\\${char}`;
  }
  return source;
}

export function compileCollectPatterns(patterns: string[]): RegExp[] {
  return patterns.map((pattern) => new RegExp(`^(?:${collectPatternSource(pattern)})$`));
}
