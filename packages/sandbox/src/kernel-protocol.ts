/**
 * The frames between the host and the kernel's driver: one JSON object a line (UTF-8, `\n`-terminated;
 * JSON never puts a raw newline inside a string, and no UTF-8 sequence contains the byte 0x0a).
 *
 *   driver → host, once:   {"ready":true}
 *   host → driver:         {"id":7,"code":"1+1","timeout":30}
 *   driver → host:         {"id":7,"count":3,"status":"ok","outputs":[…],"truncated":false,
 *                           "timedOut":false,"fatal":null}
 *
 * Everything the driver sends is untrusted (it shares a process with the user's code): the host checks
 * every field, and a frame that fails, runs past the size cap or comes unasked ends the kernel. Text
 * fields come out through `storableText` (output-text.ts): a NUL the program printed is U+FFFD here,
 * before anything stores, validates or answers it.
 */
import type { KernelMimeBundle, KernelOutput } from './kernel-types.ts';
import { storableText } from './output-text.ts';

export interface KernelReply {
  id: number;
  count: number;
  status: 'ok' | 'error';
  outputs: KernelOutput[];
  truncated: boolean;
  timedOut: boolean;
  fatal: 'memory' | null;
}

export function encodeRequest(id: number, code: string, timeoutMs: number): Buffer {
  return Buffer.from(`${JSON.stringify({ id, code, timeout: timeoutMs / 1000 })}\n`, 'utf8');
}

/** Splits a byte stream into lines; `push` returns null once a line grows past `maxBytes`. */
export class FrameReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): string[] | null {
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      if (this.pendingBytes + newline - start > this.maxBytes) return null;
      this.pending.push(chunk.subarray(start, newline));
      lines.push(Buffer.concat(this.pending).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) return null;
      this.pending.push(chunk.subarray(start));
    }
    return lines;
  }
}

/** The parsed frame, or undefined when the line is not JSON. */
export function parseFrame(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export function isReadyFrame(frame: unknown): boolean {
  return isRecord(frame) && frame.ready === true;
}

/** The reply to request `id`, or null when the frame is not exactly that. */
export function parseReply(frame: unknown, id: number): KernelReply | null {
  if (!isRecord(frame) || frame.id !== id || !isCount(frame.count) || !Array.isArray(frame.outputs)) {
    return null;
  }
  const { status, truncated, timedOut, fatal } = frame;
  if (status !== 'ok' && status !== 'error') return null;
  if (typeof truncated !== 'boolean' || typeof timedOut !== 'boolean') return null;
  if (fatal !== null && fatal !== 'memory') return null;
  const outputs: KernelOutput[] = [];
  for (const item of frame.outputs) {
    const output = toOutput(item);
    if (output === null) return null;
    outputs.push(output);
  }
  return { id, count: frame.count, status, outputs, truncated, timedOut, fatal };
}

function toOutput(item: unknown): KernelOutput | null {
  if (!isRecord(item)) return null;
  switch (item.output_type) {
    case 'stream':
      return (item.name === 'stdout' || item.name === 'stderr') && typeof item.text === 'string'
        ? { output_type: 'stream', name: item.name, text: storableText(item.text) }
        : null;
    case 'execute_result': {
      const data = toBundle(item.data);
      return data && isCount(item.execution_count)
        ? { output_type: 'execute_result', execution_count: item.execution_count, data }
        : null;
    }
    case 'display_data': {
      const data = toBundle(item.data);
      return data ? { output_type: 'display_data', data } : null;
    }
    case 'error': {
      const { ename, evalue, traceback } = item;
      if (typeof ename !== 'string' || typeof evalue !== 'string' || !Array.isArray(traceback)) return null;
      const lines = traceback.filter((line): line is string => typeof line === 'string');
      return lines.length === traceback.length
        ? {
            output_type: 'error',
            ename: storableText(ename),
            evalue: storableText(evalue),
            traceback: lines.map(storableText),
          }
        : null;
    }
    default:
      return null;
  }
}

const MIME_TYPES = ['text/plain', 'text/html', 'image/png'] as const;

function toBundle(value: unknown): KernelMimeBundle | null {
  if (!isRecord(value)) return null;
  const bundle: KernelMimeBundle = {};
  for (const [key, content] of Object.entries(value)) {
    const mime = MIME_TYPES.find((known) => known === key);
    if (mime === undefined || typeof content !== 'string') return null;
    bundle[mime] = storableText(content);
  }
  return bundle;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && typeof value === 'number' && value >= 0;
}
