import { chmod, chown, lstat, mkdir, readdir, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { validateRelativePath } from './paths.ts';
import { SandboxRequestError, SandboxUnavailableError, type SandboxFile } from './types.ts';

/**
 * Where a run's files live on the host:
 *
 *   <jobBase>/kadai-sandbox/            root:<gid> 2750 (setgid: everything below gets the group)
 *     job-<pid>-17/                     → /job of a read-only run (a writable /job is a tmpfs instead)
 *     job-<pid>-17-ro-0/, …-ro-1/ …     → each `readOnlyFiles` entry
 *
 * Owned by root and readable by the sandbox's group only: bubblewrap runs as uid/gid 65534 (setpriv drops
 * before it, so RLIMIT_NPROC applies), and an unprivileged bind mount needs that uid to reach the source.
 * Inside the sandbox nothing of the host is visible but these binds, so other jobs cannot be found.
 * The shared parent makes a run cost one mkdir instead of mkdtemp + chown + chmod.
 */
export interface JobDir {
  /** The dir bound at /job (null for a writable run). */
  job: string | null;
  /** One dir per `readOnlyFiles` entry. */
  readOnly: string[];
  /** What was created, in order: removed in reverse. */
  created: { path: string; isDir: boolean }[];
}

const DIR_MODE = 0o2750;
const FILE_MODE = 0o640;

const roots = new Map<string, Promise<string>>();
let counter = 0;

/**
 * `<base>/kadai-sandbox`, shared by every grader process on the host (job names carry the pid). The
 * name is fixed so nothing accumulates in /tmp; because /tmp is world-writable, a dir that is already
 * there is used only if it is a real directory of root that nobody else may write to.
 */
function jobRoot(base: string, gid: number): Promise<string> {
  const key = `${base}\0${gid}`;
  let root = roots.get(key);
  if (!root) {
    root = (async () => {
      const dir = path.join(base, 'kadai-sandbox');
      try {
        await mkdir(dir, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const info = await lstat(dir);
        if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) {
          throw new SandboxUnavailableError(
            `Sandbox unavailable: ${dir} exists but is not a private dir of root`,
          );
        }
      }
      await chown(dir, 0, gid);
      await chmod(dir, DIR_MODE);
      await sweep(dir);
      return dir;
    })();
    root.catch(() => roots.delete(key));
    roots.set(key, root);
  }
  return root;
}

/**
 * Removes what graders that died mid-run left behind: dirs of pids that no longer exist, and of our own
 * pid (a dead process's pid reused by us, before we made anything). Runs once per process.
 */
async function sweep(root: string): Promise<void> {
  for (const name of await readdir(root).catch((): string[] => [])) {
    const pid = Number(/^job-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid)) continue;
    if (pid !== process.pid && isAlive(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true }).catch(() => {});
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes `files` (unless null: a writable run gets its files through pipes instead) and each read-only
 * file set into fresh dirs. Touches the disk only when there is something to write.
 */
export async function createJobDir(
  base: string,
  gid: number,
  files: SandboxFile[] | null,
  readOnlyFileSets: SandboxFile[][],
): Promise<JobDir> {
  const dir: JobDir = { job: null, readOnly: [], created: [] };
  if (files === null && readOnlyFileSets.length === 0) return dir;
  const name = path.join(await jobRoot(base, gid), `job-${process.pid}-${++counter}`);
  try {
    if (files !== null) {
      dir.job = name;
      await writeTree(name, files, dir.created);
    }
    for (const [index, set] of readOnlyFileSets.entries()) {
      const readOnly = `${name}-ro-${index}`;
      dir.readOnly.push(readOnly);
      await writeTree(readOnly, set, dir.created);
    }
    return dir;
  } catch (error) {
    await removeJobDir(dir);
    throw error;
  }
}

/** Checks every name before anything is written, so a bad request never touches the disk. */
export function validateFiles(files: SandboxFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    validateRelativePath(file.path);
    if (typeof file.content !== 'string' && !(file.content instanceof Uint8Array)) {
      throw new SandboxRequestError(`File ${JSON.stringify(file.path)}: content must be a string or bytes`);
    }
    if (seen.has(file.path))
      throw new SandboxRequestError(`Duplicate file path ${JSON.stringify(file.path)}`);
    seen.add(file.path);
  }
  for (const name of seen) {
    const segments = name.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (seen.has(parent)) {
        throw new SandboxRequestError(`File ${JSON.stringify(parent)} is also a directory of ${name}`);
      }
    }
  }
}

async function writeTree(
  dir: string,
  files: SandboxFile[],
  created: { path: string; isDir: boolean }[],
): Promise<void> {
  await mkdir(dir, { mode: DIR_MODE });
  created.push({ path: dir, isDir: true });
  const made = new Set<string>([dir]);
  for (const file of files) {
    const target = path.join(dir, file.path);
    // Parents one by one (not `recursive`), so that each is known and removed again.
    const parents: string[] = [];
    for (let parent = path.dirname(target); !made.has(parent); parent = path.dirname(parent)) {
      parents.unshift(parent);
    }
    for (const parent of parents) {
      await mkdir(parent, { mode: DIR_MODE });
      made.add(parent);
      created.push({ path: parent, isDir: true });
    }
    // 'wx': the directory is brand new, but never write through anything that is already there.
    await writeFile(target, file.content, { mode: FILE_MODE, flag: 'wx' });
    created.push({ path: target, isDir: false });
  }
}

/**
 * Removes exactly what createJobDir made: nothing else can appear, as the sandbox only ever sees these
 * dirs read-only. Falls back to a recursive removal should anything be unexpected.
 */
export async function removeJobDir(dir: JobDir): Promise<void> {
  try {
    await Promise.all(dir.created.filter((entry) => !entry.isDir).map((entry) => unlink(entry.path)));
    for (const entry of dir.created.filter((e) => e.isDir).reverse()) await rmdir(entry.path);
  } catch {
    for (const top of [...(dir.job ? [dir.job] : []), ...dir.readOnly]) {
      await rm(top, { recursive: true, force: true, maxRetries: 2 }).catch((error: unknown) => {
        console.warn(`sandbox: could not remove job dir ${top}: ${String(error)}`);
      });
    }
  }
}
