/**
 * A paired run: a trusted main program and an untrusted worker, each in a sandbox of its own (its own
 * user, PID, mount and network namespaces), joined only by two sockets that the main program holds:
 *
 * - the **data** socket (descriptor 5 of the main program) goes to the worker program itself, as its
 *   descriptor 3: the main program asks, the worker answers;
 * - the **control** socket (descriptor 6) goes to the worker sandbox's PID 1, the supervisor
 *   (supervisor.ts), which starts, measures and kills the worker on the main program's request.
 *
 * Neither sandbox can reach anything of the other: no shared folder, no process it could see or signal.
 * What the worker writes to its stdout and stderr comes back here, capped, as diagnostics.
 *
 * The sockets are the worker's own stdio sockets (libuv makes them with socketpair, so each is two-way),
 * handed to the main program when it is spawned. Both spawns happen in one synchronous turn, and this
 * process closes its copies in the same turn, so it never reads a byte of them: the event loop does not
 * poll between the worker's spawn and the close.
 */
import type { Readable, Writable } from 'node:stream';
import { assertAvailable, resolveOptions } from './availability.ts';
import { CappedOutput } from './capture.ts';
import { buildCommand, type WritableJob } from './command.ts';
import { drainAfterExit } from './drain.ts';
import { findLeakedDescriptors } from './fds.ts';
import { createJobDir, removeJobDir, validateFiles } from './jobdir.ts';
import { REPORT_FD, parseLauncherReport } from './launcher.ts';
import { execute, planWritableJob, resolveLimits, toResult, validateRequest, type RawRun } from './run.ts';
import { FLOOD_FACTOR, killSandbox, isRunning, spawnFailure, spawnSandbox } from './spawn.ts';
import {
  COLLECT_MAX_BYTES,
  COLLECT_MAX_FILES,
  SandboxRequestError,
  type SandboxFile,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxRequest,
  type SandboxResult,
} from './types.ts';
import { compileCollectPatterns } from './paths.ts';

/** The main program's end of the data socket. */
export const PAIR_DATA_FD = 5;
/** The main program's end of the control socket (to the worker sandbox's supervisor). */
export const PAIR_CONTROL_FD = 6;
/** Where each worker incarnation finds its end of the data socket. */
export const WORKER_DATA_FD = 3;
/** The supervisor's descriptors (the launcher's report stays on 3). */
const SUPERVISOR_DATA_FD = 4;
const SUPERVISOR_CONTROL_FD = 5;
/** Once the main program has ended, the supervisor ends by itself; past this it is killed. */
const WORKER_GRACE_MS = 5000;

export interface WorkerRequest {
  /** The worker's /job: always a writable copy of these files. */
  files: SandboxFile[];
  /** Arguments after `/usr/bin/python3 -I`, for every incarnation. */
  argv: string[];
  /**
   * Limits of the worker sandbox and of each incarnation's processes. `wallMs` is not used (the main
   * program's wall clock ends both); `cpuSeconds` is a backstop per incarnation, as the main program is
   * expected to measure and stop the worker itself; `outputBytes` caps each of its stdout and stderr.
   */
  limits?: Partial<SandboxLimits>;
}

export interface PairedRequest {
  /** The trusted program. Its own limits, files and result channel work as in runSandboxed. */
  main: SandboxRequest;
  worker: WorkerRequest;
  /** Each chunk of the main program's result channel as it arrives (e.g. to watch its progress). */
  onChannel?: (chunk: Uint8Array) => void;
}

export interface WorkerResult {
  /** What the worker's processes wrote to their descriptors 1 and 2 (not what the main program took). */
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** CPU time of every incarnation together; null when the supervisor could not report. */
  cpuMs: number | null;
  /** Peak RSS in KiB of the largest of its processes. */
  memoryKb: number | null;
  /** 'output': the host killed the worker sandbox for flooding its stdout or stderr. */
  killedFor: 'output' | null;
}

export interface PairedResult extends SandboxResult {
  worker: WorkerResult;
}

interface WorkerRun {
  stdout: CappedOutput;
  stderr: CappedOutput;
  report: Buffer;
  killedFor: 'output' | null;
}

/**
 * Runs the pair to the end of the main program. Never runs anything unsandboxed: throws
 * SandboxUnavailableError when a piece is missing, SandboxRequestError for unsafe names or limits.
 * Rejects when `main.signal` aborts (both sandboxes are killed) or a sandbox cannot start.
 */
export async function runPaired(request: PairedRequest, options?: SandboxOptions): Promise<PairedResult> {
  const config = resolveOptions(options);
  const main = request.main;
  const mainLimits = resolveLimits(main.limits);
  const workerLimits = resolveLimits(request.worker.limits);
  const mainArgv = main.argv ?? ['main.py'];
  const writable = main.writable ?? false;
  const collect = main.collect ?? [];
  validateRequest(main, mainArgv, writable, collect);
  validateFiles(request.worker.files);
  if (request.worker.argv.some((arg) => typeof arg !== 'string' || arg.includes('\0'))) {
    throw new SandboxRequestError('argv must be strings without NUL');
  }
  if (main.readOnlyDirs?.length) throw new SandboxRequestError('A paired run takes no readOnlyDirs');
  const patterns = compileCollectPatterns(collect);
  main.signal?.throwIfAborted();
  await assertAvailable(config);

  const readOnlyFiles = main.readOnlyFiles ?? [];
  const mainJob = writable ? planWritableJob(main.files, PAIR_CONTROL_FD + 1) : null;
  const workerJob = planWritableJob(request.worker.files, SUPERVISOR_CONTROL_FD + 1);
  const dir = await createJobDir(
    config.jobBase,
    config.gid,
    writable ? null : main.files,
    readOnlyFiles.map((set) => set.files),
  );
  try {
    const mainCommand = buildCommand({
      options: config,
      limits: mainLimits,
      job: mainJob ?? { hostDir: dir.job! },
      argv: mainArgv,
      collect,
      collectMaxFiles: COLLECT_MAX_FILES,
      collectMaxBytes: COLLECT_MAX_BYTES,
      mounts: readOnlyFiles.map((set, index) => ({
        hostPath: dir.readOnly[index]!,
        sandboxPath: set.sandboxPath,
      })),
      init: collect.length > 0 ? 'launcher' : 'program',
    });
    const workerCommand = buildCommand({
      options: config,
      limits: workerLimits,
      job: workerJob,
      argv: request.worker.argv,
      collect: [],
      collectMaxFiles: 0,
      collectMaxBytes: 0,
      mounts: [],
      init: 'supervisor',
    });
    const leaked = await findLeakedDescriptors();

    // From here to the close of our copies of the sockets: one synchronous turn (see the top).
    const worker = spawnSandbox(
      workerCommand,
      [REPORT_FD, SUPERVISOR_DATA_FD, SUPERVISOR_CONTROL_FD, ...workerJob.files.map(({ fd }) => fd)],
      leaked,
    );
    const stdio: (Readable | Writable | null | undefined)[] = worker.stdio;
    const data = stdio[SUPERVISOR_DATA_FD]!;
    const control = stdio[SUPERVISOR_CONTROL_FD]!;
    const shared = new Map<number, Readable | Writable>([
      [PAIR_DATA_FD, data],
      [PAIR_CONTROL_FD, control],
    ]);
    let mainRun: Promise<RawRun>;
    try {
      mainRun = execute(mainCommand, mainLimits, mainJob, main, leaked, {
        shared,
        onChannel: request.onChannel,
      });
    } finally {
      data.destroy();
      control.destroy();
    }
    const workerRun = collectWorker(
      worker,
      workerJob,
      request.worker.files,
      workerLimits,
      workerCommand.file,
    );

    let raw: RawRun;
    try {
      raw = await mainRun;
    } catch (error) {
      killSandbox(worker);
      await workerRun.catch(() => undefined);
      throw error;
    }
    const grace = setTimeout(() => killSandbox(worker), WORKER_GRACE_MS);
    let done: WorkerRun;
    try {
      done = await workerRun;
    } finally {
      clearTimeout(grace);
    }
    const result = toResult(
      raw,
      mainLimits,
      parseLauncherReport(raw.report, patterns, COLLECT_MAX_FILES, COLLECT_MAX_BYTES),
    );
    const usage = parseLauncherReport(done.report, [], 0, 0);
    return {
      ...result,
      worker: {
        stdout: done.stdout.text(),
        stderr: done.stderr.text(),
        stdoutTruncated: done.stdout.truncated,
        stderrTruncated: done.stderr.truncated,
        cpuMs: usage.cpuMs,
        memoryKb: usage.memoryKb,
        killedFor: done.killedFor,
      },
    };
  } finally {
    await removeJobDir(dir);
  }
}

/** The worker sandbox's side: its output (capped; a flood kills it), its report, its files in. */
function collectWorker(
  child: ReturnType<typeof spawnSandbox>,
  job: WritableJob,
  files: SandboxFile[],
  limits: SandboxLimits,
  file: string,
): Promise<WorkerRun> {
  return new Promise<WorkerRun>((resolve, reject) => {
    const stdout = new CappedOutput(limits.outputBytes);
    const stderr = new CappedOutput(limits.outputBytes);
    const report: Buffer[] = [];
    let reportBytes = 0;
    let killedFor: 'output' | null = null;
    let cut = false;
    const watch = (output: CappedOutput) => (chunk: Buffer) => {
      output.push(chunk);
      if (output.total > limits.outputBytes * FLOOD_FACTOR && isRunning(child)) {
        killedFor = 'output';
        killSandbox(child);
      }
    };
    child.stdout!.on('data', watch(stdout));
    child.stderr!.on('data', watch(stderr));
    const reportStream = child.stdio[REPORT_FD] as Readable | null;
    reportStream?.on('data', (chunk: Buffer) => {
      reportBytes += chunk.length;
      if (reportBytes <= 64 * 1024) report.push(chunk);
    });
    child.stdin!.on('error', () => {});
    child.stdin!.end();
    job.files.forEach(({ fd }, index) => {
      const pipe = child.stdio[fd] as Writable | null;
      pipe?.on('error', () => {});
      pipe?.end(files[index]!.content);
    });
    child.once('exit', () => {
      drainAfterExit([child.stdout, child.stderr, reportStream] as Readable[], () => {
        cut = true;
      });
    });
    child.once('error', (error: NodeJS.ErrnoException) => reject(spawnFailure(file, error)));
    child.once('close', () => {
      if (cut) {
        reject(new Error('The worker sandbox ended but its output did not: the run is incomplete.'));
        return;
      }
      resolve({ stdout, stderr, report: Buffer.concat(report), killedFor });
    });
  });
}
