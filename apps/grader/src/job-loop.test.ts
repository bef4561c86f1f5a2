import type PgBoss from 'pg-boss';
import { describe, expect, it, vi } from 'vitest';
import { JobLoops, ensureQueue, type LoopBoss } from './job-loop.ts';

const job = (id: string): PgBoss.JobWithMetadata<{ n: number }> =>
  ({ id, name: 'q', data: { n: 1 }, expireInSeconds: 60 }) as PgBoss.JobWithMetadata<{ n: number }>;

const down = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A queue that hands out `batches` in turn, and whose database refuses `refusals` calls first. */
function fakeBoss(batches: string[][], refusals: { fetch?: number; complete?: number; fail?: number }) {
  const left = { fetch: 0, complete: 0, fail: 0, ...refusals };
  const recorded: string[] = [];
  const boss: LoopBoss = {
    fetch: <T>() => {
      if (left.fetch-- > 0) return Promise.reject(down());
      const ids = batches.shift() ?? [];
      return Promise.resolve(ids.map(job) as unknown as PgBoss.JobWithMetadata<T>[]);
    },
    complete: (_name, ids) => {
      if (left.complete-- > 0) return Promise.reject(down());
      recorded.push(...ids.map((id) => `completed ${id}`));
      return Promise.resolve();
    },
    fail: (_name, id, data) => {
      if (left.fail-- > 0) return Promise.reject(down());
      recorded.push(`failed ${id}: ${(data as { message: string }).message}`);
      return Promise.resolve();
    },
  };
  return { boss, recorded };
}

const quietLog = { warn: () => {} };

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('JobLoops', () => {
  it('records a batch once the database is back, without an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { boss, recorded } = fakeBoss([['a', 'b'], ['c']], { fetch: 2, complete: 2, fail: 1 });
      const errors: Error[] = [];
      const loops = new JobLoops(boss, quietLog, (error) => errors.push(error), { first: 5, max: 20 });
      const handled: string[] = [];
      loops.start<{ n: number }>(
        'q',
        (jobs) => {
          handled.push(...jobs.map((j) => j.id));
          return jobs[0]?.id === 'c' ? Promise.reject(new Error('boom')) : Promise.resolve();
        },
        { pollingIntervalSeconds: 0.01, batchSize: 2 },
      );
      await until(() => recorded.length === 3);
      await loops.stopAll();
      expect(handled).toEqual(['a', 'b', 'c']);
      expect(recorded).toEqual(['completed a', 'completed b', 'failed c: boom']);
      // Two refused fetches, two refused completions, one refused failure: each reported, none lost.
      expect(errors).toHaveLength(5);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('stop lets the batch in progress finish and stopAll waits for it', async () => {
    const { boss, recorded } = fakeBoss([['a'], ['b']], {});
    const loops = new JobLoops(boss, quietLog);
    let release = () => {};
    const started = new Promise<void>((resolve) => {
      loops.start(
        'q',
        () =>
          new Promise<void>((done) => {
            resolve();
            release = done;
          }),
        { pollingIntervalSeconds: 0.01 },
      );
    });
    await started;
    const stopping = loops.stopAll();
    release();
    await stopping;
    expect(recorded).toEqual(['completed a']);
  });
});

describe('ensureQueue', () => {
  it('retries a create that deadlocked and skips a queue that exists', async () => {
    let creates = 0;
    let exists = false;
    const boss = {
      getQueue: () => Promise.resolve(exists ? ({ name: 'q' } as PgBoss.QueueResult) : null),
      createQueue: () => {
        creates += 1;
        if (creates === 1)
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
        exists = true;
        return Promise.resolve();
      },
    };
    await ensureQueue(boss, 'q', quietLog);
    expect(creates).toBe(2);
    await ensureQueue(boss, 'q', quietLog);
    expect(creates).toBe(2);
  });

  it('gives up after its attempts', async () => {
    const boss = {
      getQueue: () => Promise.reject(down()),
      createQueue: () => Promise.resolve(),
    };
    await expect(ensureQueue(boss, 'q', quietLog, 2)).rejects.toThrow(/ECONNREFUSED/);
  });
});
