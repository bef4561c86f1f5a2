import type { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { assertAvailable, resolveOptions, unreachable } from './availability.ts';
import { CappedOutput } from './capture.ts';
import { classifyLimit } from './classify.ts';
import { buildCommand, type ResolvedOptions, type WritableJob } from './command.ts';
import { drainAfterExit } from './drain.ts';
import { findLeakedDescriptors, type LeakedDescriptors } from './fds.ts';
import { createJobDir, removeJobDir, validateFiles } from './jobdir.ts';
import {
  FIRST_FILE_FD,
  REPORT_FD,
  RESULT_FD,
  launcherCeilingMs,
  parseLauncherReport,
  type LauncherReport,
} from './launcher.ts';
import { resolvePositiveLimits } from './limits.ts';
import { compileCollectPatterns, validateMountPoint } from './paths.ts';
import {
  FLOOD_FACTOR,
  decodeExit,
  isRunning,
  killSandbox,
  recheckAfterFailure,
  spawnFailure,
  spawnSandbox,
} from './spawn.ts';
import {
  CHANNEL_MAX_BYTES,
  COLLECT_MAX_BYTES,
  COLLECT_MAX_FILES,
  DEFAULT_LIMITS,
  SandboxRequestError,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxFile,
  type SandboxReadOnlyDir,
  type SandboxRequest,
  type SandboxResult,
} from './types.ts';

const PAGE = 4096;
/** Past the launcher's ceiling, the time the host gives bubblewrap to start and the launcher to report. */
const BACKSTOP_MARGIN_MS = 30_000;

/**
 * Runs `/usr/bin/python3 -I <argv>` on `request.files` inside bubblewrap, as uid 65534, with rlimits,
 * a wall-clock kill of the whole tree and capped output. Never runs anything unsandboxed: throws
 * SandboxUnavailableError when a piece is missing, SandboxRequestError for unsafe names or limits.
 */
export async function runSandboxed(
  request: SandboxRequest,
  options?: SandboxOptions,
): Promise<SandboxResult> {
  const config = resolveOptions(options);
  const limits = resolveLimits(request.limits);
  const writable = request.writable ?? false;
  const collect = request.collect ?? [];
  const argv = request.argv ?? ['main.py'];
  validateRequest(request, argv, writable, collect);
  const patterns = compileCollectPatterns(collect);
  request.signal?.throwIfAborted();
  await assertAvailable(config);

  const readOnlyFiles = request.readOnlyFiles ?? [];
  const readOnlyDirs = await checkHostDirs(request.readOnlyDirs ?? [], config);
  const writableJob = writable ? planWritableJob(request.files) : null;
  const dir = await createJobDir(
    config.jobBase,
    config.gid,
    writable ? null : request.files,
    readOnlyFiles.map((set) => set.files),
  );
  try {
    const { file, args } = buildCommand({
      options: config,
      limits,
      job: writableJob ?? { hostDir: dir.job! },
      argv,
      collect,
      collectMaxFiles: COLLECT_MAX_FILES,
      collectMaxBytes: COLLECT_MAX_BYTES,
      wallMs: limits.wallMs,
      mounts: [
        ...readOnlyDirs,
        ...readOnlyFiles.map((set, index) => ({
          hostPath: dir.readOnly[index]!,
          sandboxPath: set.sandboxPath,
        })),
      ],
    });
    const leaked = await findLeakedDescriptors();
    // The launcher holds the program to its wall limit; the host's timer is the backstop behind it.
    const backstop = { ...limits, wallMs: launcherCeilingMs(limits.wallMs) + BACKSTOP_MARGIN_MS };
    const raw = await execute({ file, args }, backstop, writableJob, request, leaked);
    await recheckAfterFailure(raw.exitCode, raw.stderr.text(), config);
    return toResult(
      raw,
      limits,
      parseLauncherReport(raw.report, patterns, COLLECT_MAX_FILES, COLLECT_MAX_BYTES),
    );
  } finally {
    await removeJobDir(dir);
  }
}

/** At most this many input files in a writable run: each one is a pipe into bwrap. */
export const WRITABLE_MAX_FILES = 256;

/** A writable /job's plan: each file arrives on its own descriptor, from `firstFd` on. */
export function planWritableJob(files: SandboxFile[], firstFd = FIRST_FILE_FD): WritableJob {
  if (files.length > WRITABLE_MAX_FILES) {
    throw new SandboxRequestError(`A writable run takes at most ${WRITABLE_MAX_FILES} files`);
  }
  const dirs = new Set<string>();
  for (const file of files) {
    const segments = file.path.split('/');
    for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join('/'));
  }
  return {
    bytes: files.reduce((sum, f) => sum + Math.ceil(byteLength(f.content) / PAGE) * PAGE, 0),
    // Parents before children: a parent is a prefix, so it sorts first.
    dirs: [...dirs].sort(),
    files: files.map((file, index) => ({ path: file.path, fd: firstFd + index })),
  };
}

export function resolveLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return resolvePositiveLimits(DEFAULT_LIMITS, overrides);
}

export function validateRequest(
  request: SandboxRequest,
  argv: string[],
  writable: boolean,
  collect: string[],
): void {
  validateFiles(request.files);
  for (const set of request.readOnlyFiles ?? []) validateFiles(set.files);
  if (argv.some((arg) => typeof arg !== 'string' || arg.includes('\0'))) {
    throw new SandboxRequestError('argv must be strings without NUL');
  }
  if (collect.length > 0 && !writable) throw new SandboxRequestError('collect needs writable: true');
  const points = [
    ...(request.readOnlyDirs ?? []).map((d) => d.sandboxPath),
    ...(request.readOnlyFiles ?? []).map((d) => d.sandboxPath),
  ].map(validateMountPoint);
  for (const a of points) {
    for (const b of points) {
      if (a !== b ? b.startsWith(`${a}/`) : points.indexOf(a) !== points.lastIndexOf(a)) {
        throw new SandboxRequestError(`Mount points must not repeat or nest: ${a}, ${b}`);
      }
    }
  }
}

async function checkHostDirs(
  dirs: SandboxReadOnlyDir[],
  config: ResolvedOptions,
): Promise<SandboxReadOnlyDir[]> {
  for (const dir of dirs) {
    if (typeof dir.hostPath !== 'string' || !path.isAbsolute(dir.hostPath) || dir.hostPath.includes('\0')) {
      throw new SandboxRequestError(
        `readOnlyDirs hostPath must be absolute: ${JSON.stringify(dir.hostPath)}`,
      );
    }
    const blocked = await unreachable(dir.hostPath, config.uid, config.gid, true);
    if (blocked) {
      throw new SandboxRequestError(
        `readOnlyDirs ${dir.hostPath}: uid ${config.uid} cannot read ${blocked} (directories need o+rx, files o+r)`,
      );
    }
  }
  return dirs.map((dir) => ({ hostPath: dir.hostPath, sandboxPath: dir.sandboxPath }));
}

export interface RawRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timeMs: number;
  stdout: CappedOutput;
  stderr: CappedOutput;
  killedFor: 'wall' | 'output' | null;
  /** What the launcher wrote on fd 3: empty when it was killed before reporting. */
  report: Buffer;
  /** With `resultChannel`: what the program wrote on fd 4, capped. */
  channel: CappedOutput | null;
}

/** What a run shares with another sandbox (a paired run's sockets) and hears of as it goes. */
export interface ExecuteExtras {
  /** Streams put on these descriptors of the child (their descriptors are duplicated into it). */
  shared?: Map<number, Readable | Writable>;
  /** Each chunk of the result channel as it arrives. */
  onChannel?: (chunk: Buffer) => void;
}

/**
 * Spawns the sandbox at once (synchronously, before the returned promise settles, so that a caller can
 * close its copies of `extras.shared` in the same turn) and collects what it writes until it has ended.
 */
export function execute(
  command: { file: string; args: string[] },
  limits: SandboxLimits,
  writableJob: WritableJob | null,
  request: SandboxRequest,
  leaked: LeakedDescriptors,
  extras: ExecuteExtras = {},
): Promise<RawRun> {
  const pipes = [
    REPORT_FD,
    ...(request.resultChannel ? [RESULT_FD] : []),
    ...(writableJob?.files ?? []).map(({ fd }) => fd),
  ];

  return new Promise<RawRun>((resolve, reject) => {
    const started = performance.now();
    const child = spawnSandbox(command, pipes, leaked, extras.shared);
    const stdout = new CappedOutput(limits.outputBytes);
    const stderr = new CappedOutput(limits.outputBytes);
    const report: Buffer[] = [];
    let reportBytes = 0;
    const channel = request.resultChannel ? new CappedOutput(CHANNEL_MAX_BYTES) : null;
    const channelStream = channel ? child.stdio[RESULT_FD] : null;
    channelStream?.on('data', (chunk: Buffer) => {
      channel!.push(chunk);
      extras.onChannel?.(chunk);
    });
    let killedFor: RawRun['killedFor'] = null;
    let aborted = false;
    let cut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null; timeMs: number } | null = null;

    const kill = (reason: RawRun['killedFor'] | 'abort'): void => {
      if (!isRunning(child)) return;
      if (reason === 'abort') aborted = true;
      else killedFor ??= reason;
      killSandbox(child);
    };
    const wall = setTimeout(() => kill('wall'), limits.wallMs);
    const onAbort = (): void => kill('abort');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    const finish = (): void => {
      clearTimeout(wall);
      request.signal?.removeEventListener('abort', onAbort);
    };

    const watch = (output: CappedOutput) => (chunk: Buffer) => {
      output.push(chunk);
      if (output.total > limits.outputBytes * FLOOD_FACTOR) kill('output');
    };
    child.stdout!.on('data', watch(stdout));
    child.stderr!.on('data', watch(stderr));
    const reportStream = child.stdio[REPORT_FD];
    reportStream?.on('data', (chunk: Buffer) => {
      reportBytes += chunk.length;
      if (reportBytes <= COLLECT_MAX_BYTES * 2 + 1024 * 1024) report.push(chunk);
    });
    child.stdin!.on('error', () => {}); // EPIPE when the program does not read its stdin
    child.stdin!.end(request.stdin ?? '');
    // A writable run's files: bwrap copies each pipe into /job before the program starts.
    writableJob?.files.forEach(({ fd }, index) => {
      const pipe = child.stdio[fd] as Writable | null;
      pipe?.on('error', () => {}); // bwrap failed before reading it: the exit status says so
      pipe?.end(request.files[index]!.content);
    });

    child.once('exit', (code, signal) => {
      exit = { code, signal, timeMs: Math.round(performance.now() - started) };
      clearTimeout(wall);
      drainAfterExit([child.stdout, child.stderr, reportStream, channelStream] as Readable[], () => {
        cut = true;
      });
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      finish();
      reject(spawnFailure(command.file, error));
    });
    child.once('close', () => {
      finish();
      if (aborted || request.signal?.aborted) {
        reject(request.signal?.reason ?? new Error('aborted'));
        return;
      }
      if (cut) {
        // Something outside the sandbox's tree held its pipes open: what they held may be missing.
        reject(new Error('The sandbox ended but its output did not: the run is incomplete.'));
        return;
      }
      const done = exit ?? { code: null, signal: null, timeMs: Math.round(performance.now() - started) };
      resolve({
        exitCode: done.code,
        signal: done.signal,
        timeMs: done.timeMs,
        stdout,
        stderr,
        killedFor,
        report: Buffer.concat(report),
        channel,
      });
    });
  });
}

export function toResult(raw: RawRun, limits: SandboxLimits, report: LauncherReport): SandboxResult {
  const { exitCode, signal } = decodeExit(raw.exitCode, raw.signal);
  const stderr = raw.stderr.text();
  const truncated = raw.stdout.truncated || raw.stderr.truncated;
  const result: SandboxResult = {
    exitCode,
    signal,
    timeMs: raw.timeMs,
    cpuMs: report.cpuMs,
    memoryKb: report.memoryKb,
    stdout: raw.stdout.text(),
    stderr,
    stdoutTruncated: raw.stdout.truncated,
    stderrTruncated: raw.stderr.truncated,
    limit: classifyLimit({
      killedFor: raw.killedFor ?? (report.wall ? 'wall' : null),
      signal,
      stderr,
      timeMs: raw.timeMs,
      truncated,
      limits,
    }),
    files: report.files,
  };
  if (report.skipped.length > 0) result.filesSkipped = report.skipped;
  if (raw.channel) {
    result.channel = raw.channel.bytes();
    result.channelTruncated = raw.channel.truncated;
  }
  return result;
}

function byteLength(content: string | Uint8Array): number {
  return typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
}
