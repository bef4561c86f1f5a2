// The CPU time a command spends, with everything it starts, read from /proc while it runs.
//
// Why not `time` (or a child's rusage): the kernel adds a process's CPU to its parent's only when the
// parent waits for it. Chromium's renderers and helpers, and the servers Playwright kills by process
// group at the end of a run, are never waited for by the command's own tree, so `time npm test`
// left most of the browser's CPU out. Here every process of the tree is read every half second:
// a child is in the tree when its parent is, and so is everything in a session that a process of the
// tree leads (Playwright starts Chromium in a session of its own, whose helpers outlive their parent).
// What is lost is a process's last half second, and the CPU of a process that starts and ends between
// two readings when no parent of the tree waits for it; a parent that waits for a child it was never
// seen with is charged the difference (the `cutime` the kernel gave it beyond the children read here).
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`: 100 on every Linux port Node runs on). */
export const TICKS_PER_SECOND = 100;

/**
 * One line of /proc/<pid>/stat: the parent, the session, the process's own CPU (user + system), the CPU
 * of the children it has waited for, and its start time (which tells two processes with one pid apart).
 */
export function parseStat(text) {
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const number = (field) => Number(fields[field - 3]);
  return {
    pid: Number(text.slice(0, text.indexOf(' '))),
    ppid: number(4),
    sid: number(6),
    ownTicks: number(14) + number(15),
    childTicks: number(16) + number(17),
    start: number(22),
  };
}

/** Every process of the box, as parseStat reads it (those that end while read are left out). */
export function readProcesses(procDir = '/proc') {
  const processes = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      processes.push(parseStat(readFileSync(`${procDir}/${entry}/stat`, 'utf8')));
    } catch {
      // Ended between the listing and the read.
    }
  }
  return processes;
}

/** The CPU of one process tree, from readings of the box's processes (`sample`). */
export class ProcessTreeMeter {
  /** @param {number} rootPid the command's process */
  constructor(rootPid) {
    this.rootPid = rootPid;
    /** Each process of the tree ever read, by pid and start time. */
    this.seen = new Map();
    /** Sessions led by a process of the tree. */
    this.sessions = new Set();
    this.readings = 0;
  }

  /** Takes one reading of the box's processes (readProcesses()). */
  sample(processes) {
    const reading = ++this.readings;
    const key = (process) => `${process.pid}@${process.start}`;
    const inTree = new Set();
    let grew = true;
    // Parents first is the usual order, but a reading has no order: repeat until nothing joins.
    while (grew) {
      grew = false;
      for (const process of processes) {
        if (inTree.has(process.pid)) continue;
        if (
          process.pid === this.rootPid ||
          this.seen.has(key(process)) ||
          inTree.has(process.ppid) ||
          this.sessions.has(process.sid)
        ) {
          inTree.add(process.pid);
          if (process.pid === process.sid) this.sessions.add(process.sid);
          const first = this.seen.get(key(process))?.first ?? reading;
          this.seen.set(key(process), { ...process, first, last: reading });
          grew = true;
        }
      }
    }
  }

  /** CPU seconds of the tree up to the last reading. */
  cpuSeconds() {
    const all = [...this.seen.values()];
    const childrenOf = (parent) =>
      all.filter((child) => child !== parent && child.ppid === parent.pid && child.first >= parent.first);
    /** What is counted for a process and everything below it. */
    const counted = new Map();
    const count = (process) => {
      if (counted.has(process)) return counted.get(process);
      counted.set(process, 0); // A pid reused inside the tree cannot make this loop.
      let ticks = process.ownTicks;
      let waited = 0;
      for (const child of childrenOf(process)) {
        const below = count(child);
        ticks += below;
        // Ended while this process lived on: the kernel has put the child's CPU into its cutime.
        if (child.last < process.last) waited += below;
      }
      // Children it waited for that no reading saw, or their CPU after their last reading.
      ticks += Math.max(0, process.childTicks - waited);
      counted.set(process, ticks);
      return ticks;
    };
    const roots = all.filter((process) => !all.some((parent) => childrenOf(parent).includes(process)));
    return roots.reduce((sum, root) => sum + count(root), 0) / TICKS_PER_SECOND;
  }
}
