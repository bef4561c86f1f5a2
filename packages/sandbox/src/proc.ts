/** The host's view of a sandbox's processes, read from /proc (Linux only, as the sandbox is). */
import { readdir, readFile } from 'node:fs/promises';

export interface HostProcess {
  pid: number;
  parent: number;
  /** `R`, `S`, `Z` (a zombie: dead, not yet reaped) … */
  state: string;
  /** Clock ticks after boot: with the pid, it tells a process from a later one that reuses the pid. */
  startTime: number;
  command: string;
}

export async function readHostProcess(pid: number): Promise<HostProcess | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // "pid (comm) state ppid …": comm may itself hold spaces and parentheses, so split at the last ')'.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const parent = Number(fields[1]);
  const startTime = Number(fields[19]);
  if (close < 0 || !Number.isSafeInteger(parent) || !Number.isSafeInteger(startTime)) return null;
  return {
    pid,
    parent,
    state: fields[0] ?? '?',
    startTime,
    command: stat.slice(stat.indexOf('(') + 1, close),
  };
}

/** `root` and every process below it, parents first; empty when `root` is gone. */
export async function listProcessTree(root: number): Promise<HostProcess[]> {
  const names = await readdir('/proc').catch((): string[] => []);
  const processes = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map((name) => readHostProcess(Number(name))),
  );
  const children = new Map<number, HostProcess[]>();
  for (const entry of processes) {
    if (entry === null) continue;
    children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  }
  const top = processes.find((entry) => entry?.pid === root);
  if (!top) return [];
  const tree = [top];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!.pid) ?? []));
  return tree;
}

/** Whether the process still runs: the same pid with the same start time, and not a zombie. */
export async function isProcessAlive(entry: HostProcess): Promise<boolean> {
  const now = await readHostProcess(entry.pid);
  return now !== null && now.startTime === entry.startTime && now.state !== 'Z';
}

/** The process below `root` that is `namespacePid` in its own PID namespace (NSpid's last entry). */
export async function findNamespaceProcess(root: number, namespacePid: number): Promise<HostProcess | null> {
  for (const entry of await listProcessTree(root)) {
    const status = await readFile(`/proc/${entry.pid}/status`, 'utf8').catch(() => '');
    const ids = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
    if (ids.length > 1 && ids[ids.length - 1] === String(namespacePid)) return entry;
  }
  return null;
}

/** VmRSS in KiB; null when the process is gone. */
export async function residentKb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s*(\d+) kB$/m.exec(status)?.[1];
  return kb === undefined ? null : Number(kb);
}
