import { describe, expect, it } from 'vitest';
import { isConfigurationError, untilItWorks, untilTablesExist, whileDatabaseAway } from './backoff.ts';

const quiet = { warn: () => {} };
const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const fast = { first: 1, max: 4 };

/** `fn` fails with `errors` in turn, then answers 'ok'. */
function failing(errors: Error[]) {
  let calls = 0;
  return {
    fn: () => {
      calls += 1;
      const error = errors.shift();
      return error ? Promise.reject(error) : Promise.resolve('ok');
    },
    calls: () => calls,
  };
}

describe('whileDatabaseAway', () => {
  it('writes again while the database is away, and then succeeds', async () => {
    const f = failing([coded('ECONNREFUSED'), coded('57P01'), coded('08006')]);
    await expect(whileDatabaseAway('w', f.fn, quiet, { maxMs: 5000, delays: fast })).resolves.toBe('ok');
    expect(f.calls()).toBe(4);
  });

  it('throws any other failure at once, and the outage once its time is up or the attempt is stopped', async () => {
    const wrong = failing([coded('23505')]);
    await expect(whileDatabaseAway('w', wrong.fn, quiet, { maxMs: 5000, delays: fast })).rejects.toThrow();
    expect(wrong.calls()).toBe(1);
    const endless = { fn: () => Promise.reject(coded('ECONNREFUSED')) };
    await expect(whileDatabaseAway('w', endless.fn, quiet, { maxMs: 30, delays: fast })).rejects.toThrow('x');
    const stopped = new AbortController();
    stopped.abort();
    const once = failing([coded('ECONNREFUSED')]);
    await expect(
      whileDatabaseAway('w', once.fn, quiet, { maxMs: 5000, signal: stopped.signal, delays: fast }),
    ).rejects.toThrow();
    expect(once.calls()).toBe(1);
  });
});

describe('untilItWorks', () => {
  it('waits out any failure but a wrong password or a missing database', async () => {
    const f = failing([coded('ECONNREFUSED'), new Error('no Kadai tables yet')]);
    await expect(untilItWorks('start', f.fn, quiet, { delays: fast })).resolves.toBe('ok');
    const denied = failing([coded('28P01')]);
    await expect(
      untilItWorks('start', denied.fn, quiet, { isFatal: isConfigurationError, delays: fast }),
    ).rejects.toThrow();
    expect(denied.calls()).toBe(1);
  });
});

describe('untilTablesExist', () => {
  it('asks for every table and waits until they are all there', async () => {
    const asked: string[] = [];
    let answers = [false, false, true];
    const query = (text: string) => {
      asked.push(text);
      const ok = answers[0] ?? true;
      answers = answers.slice(1);
      return Promise.resolve({ rows: [{ ok }] });
    };
    await untilTablesExist(query, ['grader_hosts', 'pgboss.queue'], quiet, { first: 1, max: 2 });
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBe(
      "SELECT to_regclass('grader_hosts') IS NOT NULL AND to_regclass('pgboss.queue') IS NOT NULL AS ok",
    );
  });
});
