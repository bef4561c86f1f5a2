import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveOptions } from './availability.ts';
import { runSandboxed } from './run.ts';
import type { SandboxOptions } from './types.ts';

const run = promisify(execFile);

export interface SandboxStatus {
  ok: boolean;
  detail: string;
}

export interface ProbeOptions extends SandboxOptions {
  /** How long a result is reused (default 60 s): /api/health calls this on every request. */
  maxAgeMs?: number;
}

const cache = new Map<string, { at: number; status: Promise<SandboxStatus> }>();

/**
 * Checks that bubblewrap, setpriv, prlimit and Debian's python3 are present, then runs `print(1)` in
 * the sandbox: "ok" means a program really ran isolated, not merely that the binaries exist.
 * Results (and a probe in flight) are shared for `maxAgeMs`.
 */
export function probeSandbox(options: ProbeOptions = {}): Promise<SandboxStatus> {
  const { maxAgeMs = 60_000, ...sandboxOptions } = options;
  const key = JSON.stringify(resolveOptions(sandboxOptions));
  const cached = cache.get(key);
  if (cached && performance.now() - cached.at < maxAgeMs) return cached.status;
  const status = probe(sandboxOptions);
  cache.set(key, { at: performance.now(), status });
  return status;
}

async function probe(options: SandboxOptions): Promise<SandboxStatus> {
  const resolved = resolveOptions(options);
  const required = [
    { bin: resolved.bwrapPath, args: ['--version'], pkg: 'bubblewrap' },
    { bin: resolved.setprivPath, args: ['--version'], pkg: 'util-linux' },
    { bin: resolved.prlimitPath, args: ['--version'], pkg: 'util-linux' },
    { bin: resolved.pythonPath, args: ['--version'], pkg: 'python3' },
  ];
  const found: string[] = [];
  const missing: string[] = [];
  for (const { bin, args, pkg } of required) {
    try {
      const { stdout, stderr } = await run(bin, args, { env: {}, timeout: 5000 });
      found.push((stdout || stderr).trim().split('\n')[0] ?? bin);
    } catch {
      missing.push(pkg);
    }
  }
  if (missing.length > 0) {
    const unique = [...new Set(missing)];
    return {
      ok: false,
      detail: `Sandbox unavailable: missing ${unique.join(', ')} (apt-get install -y ${unique.join(' ')}). Submissions wait until a grader with a sandbox takes them.`,
    };
  }
  try {
    const result = await runSandboxed(
      { files: [{ path: 'main.py', content: 'print(1)\n' }], limits: { wallMs: 10_000 } },
      options,
    );
    if (result.exitCode !== 0 || result.stdout !== '1\n') {
      return {
        ok: false,
        detail: `Sandbox unavailable: a trivial sandboxed program failed (exit ${result.exitCode ?? result.signal}): ${result.stderr.trim().slice(0, 500)}`,
      };
    }
    return { ok: true, detail: `${found.join('; ')}; sandboxed run ok in ${result.timeMs} ms` };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
