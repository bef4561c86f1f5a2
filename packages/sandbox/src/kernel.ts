/**
 * A kernel: one long-lived CPython process per notebook session, confined exactly like runSandboxed
 * (same command, launcher and availability checks), that runs code cell by cell with state kept in
 * between. The Python side is kernel-driver.ts, the frames kernel-protocol.ts.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { assertAvailable, resolveOptions } from './availability.ts';
import { CappedOutput } from './capture.ts';
import { classifyLimit } from './classify.ts';
import { buildCommand } from './command.ts';
import { drainAfterExit } from './drain.ts';
import { findLeakedDescriptors } from './fds.ts';
import { DRIVER_MEMORY_EXIT, driverArgv } from './kernel-driver.ts';
import { FrameReader, encodeRequest, isReadyFrame, parseFrame, parseReply } from './kernel-protocol.ts';
import {
  DEFAULT_KERNEL_LIMITS,
  DEFAULT_KERNEL_TIMEOUT_MS,
  KERNEL_MAX_CODE_LENGTH,
  KERNEL_MAX_OUTPUTS,
  type Kernel,
  type KernelExecuteOptions,
  type KernelExit,
  type KernelExitReason,
  type KernelLimitHit,
  type KernelLimits,
  type KernelOptions,
  type KernelResult,
} from './kernel-types.ts';
import { REPORT_FD, parseLauncherReport } from './launcher.ts';
import { resolvePositiveLimits } from './limits.ts';
import { findNamespaceProcess, isProcessAlive, residentKb, type HostProcess } from './proc.ts';
import {
  FLOOD_FACTOR,
  decodeExit,
  isRunning,
  killSandbox,
  recheckAfterFailure,
  spawnFailure,
  spawnSandbox,
} from './spawn.ts';
import { SandboxRequestError, type SandboxOptions } from './types.ts';

const DIAGNOSTIC_BYTES = 64 * 1024;
const REPORT_BYTES = 64 * 1024;
/** Longest execution time limit: a day. */
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** The driver's pid inside the sandbox's PID namespace: the launcher is 1, the program it starts 2. */
const DRIVER_NAMESPACE_PID = 2;
/** An interrupt signals the driver this many times, this far apart, while the execution goes on. */
const INTERRUPT_SIGNALS = 4;
const INTERRUPT_REPEAT_MS = 500;

/**
 * Starts a kernel and waits until it is ready for code. Never runs unsandboxed: throws
 * SandboxUnavailableError when a piece of the sandbox is missing, SandboxRequestError for bad limits.
 */
export async function startKernel(
  options: KernelOptions = {},
  sandboxOptions?: SandboxOptions,
): Promise<Kernel> {
  const config = resolveOptions(sandboxOptions);
  const limits = resolvePositiveLimits(DEFAULT_KERNEL_LIMITS, options.limits);
  const startTimeoutMs = checkDuration(options.startTimeoutMs ?? 15_000, 'startTimeoutMs');
  const graceMs = checkDuration(options.graceMs ?? 2000, 'graceMs');
  await assertAvailable(config);
  const command = buildCommand({
    options: config,
    limits,
    job: { bytes: 0, dirs: [], files: [] }, // /job: an empty tmpfs of tmpBytes, the working directory
    argv: driverArgv(limits.outputBytes, KERNEL_MAX_OUTPUTS),
    collect: [],
    collectMaxFiles: 0,
    collectMaxBytes: 0,
    mounts: [],
  });
  const leaked = await findLeakedDescriptors();
  const kernel = new SandboxKernel(spawnSandbox(command, [REPORT_FD], leaked), command.file, limits, graceMs);
  const failure = await kernel.started(startTimeoutMs);
  if (failure !== null) {
    await recheckAfterFailure(failure.exitCode, failure.detail, config);
    throw failure.error;
  }
  return kernel;
}

function checkDuration(ms: number, name: string): number {
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw new SandboxRequestError(`${name} must be a positive integer of milliseconds up to a day`);
  }
  return ms;
}

/** The limit to report for an execution the kernel died in. */
function limitOf(reason: KernelExitReason): KernelLimitHit {
  return reason === 'memory' || reason === 'cpu' || reason === 'wall' || reason === 'output' ? reason : null;
}

class SandboxKernel implements Kernel {
  readonly pid: number;
  private readonly frames: FrameReader;
  private readonly diagnostics = new CappedOutput(DIAGNOSTIC_BYTES);
  /** What the launcher reports on fd 3 once the driver has ended (its CPU time). */
  private readonly report: Buffer[] = [];
  private reportBytes = 0;
  /** Receives the next frame; null when the kernel ended first. */
  private waiting: ((frame: unknown) => void) | null = null;
  private readonly firstFrame: Promise<unknown>;
  private ready = false;
  private killedFor: KernelExitReason | null = null;
  private spawnError: Error | null = null;
  private exit: KernelExit | null = null;
  private readonly ended: Promise<KernelExit>;
  private markEnded!: (exit: KernelExit) => void;
  private readonly listeners = new Set<(exit: KernelExit) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  private driver: HostProcess | null = null;
  /** The id of the execution the driver is running now, and of the one being interrupted. */
  private running: number | null = null;
  private interrupting: number | null = null;

  constructor(
    private readonly child: ChildProcess,
    private readonly file: string,
    private readonly limits: KernelLimits,
    private readonly graceMs: number,
  ) {
    this.pid = child.pid ?? -1;
    // Room for every output at its cap with JSON's worst escaping (6 bytes a byte), plus the errors.
    this.frames = new FrameReader(limits.outputBytes * 6 + 16 * 1024 * 1024);
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.firstFrame = this.nextFrame();
    child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.diagnostics.push(chunk);
      if (this.diagnostics.total > DIAGNOSTIC_BYTES * FLOOD_FACTOR) this.kill('output');
    });
    child.stdio[REPORT_FD]?.on('data', (chunk: Buffer) => {
      this.reportBytes += chunk.length;
      if (this.reportBytes <= REPORT_BYTES) this.report.push(chunk);
    });
    child.stdin!.on('error', () => {}); // EPIPE once the kernel is gone: the close says why
    child.once('exit', () => {
      // Every process inside is gone with bwrap; a descriptor still open would mean one escaped.
      drainAfterExit([child.stdout, child.stderr, child.stdio[REPORT_FD]] as Readable[], () => {});
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      this.spawnError = spawnFailure(this.file, error);
      this.finish(null, null);
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => this.finish(code, signal));
  }

  get alive(): boolean {
    return this.ready && this.exit === null && this.killedFor === null && isRunning(this.child);
  }

  /** Waits for the ready frame; on failure, what to tell the caller (the kernel is then gone). */
  async started(
    timeoutMs: number,
  ): Promise<{ error: Error; exitCode: number | null; detail: string } | null> {
    const timer = setTimeout(() => this.kill('wall'), timeoutMs);
    const frame = await this.firstFrame;
    clearTimeout(timer);
    if (frame !== null && isReadyFrame(frame)) {
      this.ready = true;
      return null;
    }
    this.kill('protocol');
    const exit = await this.ended;
    const error =
      this.spawnError ??
      new Error(
        `The kernel did not start (${exit.reason}, exit ${exit.exitCode ?? exit.signal}): ${exit.detail.trim().slice(0, 500)}`,
      );
    return { error, exitCode: exit.exitCode, detail: exit.detail };
  }

  execute(code: string, options: KernelExecuteOptions = {}): Promise<KernelResult> {
    if (typeof code !== 'string' || code.length > KERNEL_MAX_CODE_LENGTH) {
      return Promise.reject(
        new SandboxRequestError(`code must be a string of at most ${KERNEL_MAX_CODE_LENGTH} characters`),
      );
    }
    let timeoutMs: number;
    try {
      timeoutMs = checkDuration(options.timeoutMs ?? DEFAULT_KERNEL_TIMEOUT_MS, 'timeoutMs');
    } catch (error) {
      return Promise.reject(error);
    }
    const result = this.queue.then(() => this.run(code, timeoutMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  onExit(listener: (exit: KernelExit) => void): () => void {
    const exit = this.exit;
    if (exit !== null) {
      queueMicrotask(() => listener(exit));
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async shutdown(): Promise<void> {
    this.kill('shutdown');
    await this.ended;
  }

  async memoryKb(): Promise<number | null> {
    if (!this.alive) return null;
    const driver = await this.findDriver();
    return driver === null ? null : residentKb(driver.pid);
  }

  async interrupt(): Promise<boolean> {
    const id = this.running;
    if (id === null || !this.alive) return false;
    if (this.interrupting === id) return true;
    const driver = await this.findDriver();
    // Looking took a moment: the execution may have answered meanwhile.
    if (driver === null || this.running !== id) return false;
    this.interrupting = id;
    this.signalDriver(driver, id, INTERRUPT_SIGNALS);
    return true;
  }

  /** SIGINT to the driver while execution `id` runs; the driver ignores it outside the user's code. */
  private signalDriver(driver: HostProcess, id: number, times: number): void {
    if (this.running !== id || !this.alive) return;
    try {
      process.kill(driver.pid, 'SIGINT');
    } catch {
      return; // The driver is gone: the execution answers 'dead'.
    }
    if (times > 1) {
      setTimeout(() => this.signalDriver(driver, id, times - 1), INTERRUPT_REPEAT_MS).unref();
    }
  }

  /** The driver's host process (pid 2 of the sandbox's namespace), looked up in /proc once. */
  private async findDriver(): Promise<HostProcess | null> {
    if (this.driver === null || !(await isProcessAlive(this.driver))) {
      this.driver = await findNamespaceProcess(this.pid, DRIVER_NAMESPACE_PID);
    }
    return this.driver;
  }

  private async run(code: string, timeoutMs: number): Promise<KernelResult> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    if (!this.alive) return { status: 'dead', executionCount: null, outputs: [], limit: null, timeMs: 0 };
    const id = ++this.nextId;
    const next = this.nextFrame();
    this.child.stdin!.write(encodeRequest(id, code, timeoutMs));
    this.running = id;
    // The driver interrupts the code at timeoutMs; past the grace period it is not coming back.
    const timer = setTimeout(() => this.kill('wall'), timeoutMs + this.graceMs);
    const frame = await next;
    // In the same turn as the answer: a repeated interrupt can never reach the next execution.
    this.running = null;
    this.interrupting = null;
    clearTimeout(timer);
    const timeMs = elapsed();
    const reply = frame === null ? null : parseReply(frame, id);
    if (reply === null) {
      if (frame !== null) this.kill('protocol');
      const exit = await this.ended;
      return { status: 'dead', executionCount: null, outputs: [], limit: limitOf(exit.reason), timeMs };
    }
    if (reply.fatal === 'memory') {
      // The code ran out of memory: what it left in the globals may be half-built, so the kernel ends.
      this.kill('memory');
      await this.ended;
      return { status: 'dead', executionCount: reply.count, outputs: reply.outputs, limit: 'memory', timeMs };
    }
    const limit = reply.timedOut ? 'wall' : reply.truncated ? 'output' : null;
    return { status: reply.status, executionCount: reply.count, outputs: reply.outputs, limit, timeMs };
  }

  private nextFrame(): Promise<unknown> {
    return new Promise((resolve) => {
      if (this.exit !== null) resolve(null);
      else this.waiting = resolve;
    });
  }

  private onData(chunk: Buffer): void {
    const lines = this.frames.push(chunk);
    if (lines === null) {
      this.kill('protocol');
      return;
    }
    for (const line of lines) {
      const frame = parseFrame(line);
      const waiting = this.waiting;
      // Unasked for or not JSON: the driver is no longer what the host started. The one waiting hears
      // of it when the kernel has ended.
      if (waiting === null || frame === undefined || frame === null) {
        this.kill('protocol');
        return;
      }
      this.waiting = null;
      waiting(frame);
    }
  }

  private kill(reason: KernelExitReason): void {
    if (!isRunning(this.child)) return;
    this.killedFor ??= reason;
    killSandbox(this.child);
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exit !== null) return;
    const decoded = decodeExit(code, signal);
    const detail = this.diagnostics.text();
    const { cpuMs } = parseLauncherReport(Buffer.concat(this.report), [], 0, 0);
    let reason = this.killedFor;
    if (reason === null) {
      const limit = classifyLimit({
        killedFor: null,
        signal: decoded.signal,
        stderr: detail,
        timeMs: 0,
        cpuMs: cpuMs ?? 0,
        truncated: false,
        limits: this.limits,
      });
      reason =
        decoded.exitCode === DRIVER_MEMORY_EXIT
          ? 'memory'
          : limit === 'cpu' || limit === 'memory'
            ? limit
            : 'exited';
    }
    const exit: KernelExit = { reason, ...decoded, cpuMs, detail };
    this.exit = exit;
    this.markEnded(exit);
    this.waiting?.(null);
    this.waiting = null;
    for (const listener of this.listeners) {
      try {
        listener(exit);
      } catch (error) {
        console.warn(`sandbox: a kernel exit listener threw: ${String(error)}`);
      }
    }
    this.listeners.clear();
  }
}
