import type { Readable } from 'node:stream';

/** How often, once the sandbox has exited, its streams are looked at for whether they still move. */
const CHECK_MS = 2000;

/**
 * After bwrap has exited, every process of the sandbox is gone (its PID namespace went with it), so
 * each of its pipes ends once Node has read what is left in it — however long a busy event loop takes
 * to get there. A stream that stays open means something outside the tree still holds its other end:
 * then, and only then, the streams are destroyed and `onCut` says so. "Only then" is the point: a fixed
 * delay after the exit (2 s, once) threw away result lines a loaded host had not read yet.
 *
 * Every CHECK_MS: if all have ended, stop; if bytes arrived since the last look, wait again; if none did,
 * look once more after a pass of the event loop's poll phase (setImmediate runs after it), so data
 * waiting in a pipe is read before the streams count as stuck.
 */
export function drainAfterExit(streams: (Readable | null | undefined)[], onCut: () => void): void {
  const open = streams.filter((s): s is Readable => s !== null && s !== undefined && !s.readableEnded);
  if (open.length === 0) return;
  let moved = 0;
  const onData = (chunk: Buffer): void => {
    moved += chunk.length;
  };
  for (const stream of open) stream.on('data', onData);
  const stuck = (): boolean => open.some((s) => !s.readableEnded && !s.destroyed);
  const look = (): void => {
    if (!stuck()) return;
    if (moved > 0) {
      moved = 0;
      setTimeout(look, CHECK_MS).unref();
      return;
    }
    setImmediate(() => {
      if (!stuck()) return;
      if (moved > 0) {
        moved = 0;
        setTimeout(look, CHECK_MS).unref();
        return;
      }
      for (const stream of open) stream.destroy();
      onCut();
    });
  };
  setTimeout(look, CHECK_MS).unref();
}
