/** A loaded host never loses what a sandbox wrote: its pipes are read to their end after it exits. */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drainAfterExit } from './drain.ts';

/** Holds the event loop, as a host busy with other work (a long synchronous query, say) does. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('draining a sandbox after it exits', { timeout: 30_000 }, () => {
  it('reads what a process left in its pipe, however long the event loop is held after its exit', async () => {
    const child = spawn('/usr/bin/python3', ['-c', "import os\nos.write(1, b'x' * 50000)\nos._exit(0)"]);
    // Nothing is read before the exit: the data waits in the pipe, as on a loaded host.
    child.stdout.pause();
    let received = 0;
    child.stdout.on('data', (chunk: Buffer) => (received += chunk.length));
    let cut = false;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.once('exit', () => {
      child.stdout.resume();
      drainAfterExit([child.stdout], () => {
        cut = true;
      });
      // Held past the 2 s after which the old code destroyed the streams, unread.
      block(3000);
    });
    await closed;
    await tick(50);
    expect(cut).toBe(false);
    expect(received).toBe(50000);
  });

  it('gives up on a pipe that stays open without moving (something outside still holds it)', async () => {
    const pipe = new PassThrough();
    pipe.resume();
    let cut = false;
    drainAfterExit([pipe], () => {
      cut = true;
    });
    await tick(2500);
    expect(cut).toBe(true);
    expect(pipe.destroyed).toBe(true);
  });
});
