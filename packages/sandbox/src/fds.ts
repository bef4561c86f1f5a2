import { open, readdir, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

const O_CLOEXEC = 0o2000000;

/**
 * Descriptors this process inherited without close-on-exec (Node and libuv open everything with it).
 * A child would inherit them too — and bubblewrap, setpriv and prlimit close nothing — so the sandbox
 * would get, say, a pipe of whatever started the grader. runSandboxed puts /dev/null on those numbers
 * in the child instead. Found once per process: nothing in Node creates such descriptors later.
 */
export interface LeakedDescriptors {
  fds: number[];
  devNull: FileHandle | null;
}

let leaked: Promise<LeakedDescriptors> | null = null;

export function findLeakedDescriptors(): Promise<LeakedDescriptors> {
  leaked ??= scan();
  return leaked;
}

async function scan(): Promise<LeakedDescriptors> {
  const fds: number[] = [];
  const names = await readdir('/proc/self/fd').catch((): string[] => []);
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < 3) continue;
    try {
      const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8');
      const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) fds.push(fd);
    } catch {
      // Closed meanwhile (e.g. the readdir handle itself): nothing to hide.
    }
  }
  return { fds, devNull: fds.length > 0 ? await open('/dev/null', 'r+') : null };
}
