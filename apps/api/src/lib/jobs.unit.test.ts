import { describe, expect, it } from 'vitest';
import { QUEUE_ERROR_MEMORY_MS, queueHealth } from './jobs.ts';

describe('the job queue’s health', () => {
  it('is down while pg-boss fails, and healthy again by itself once the errors stop', () => {
    const at = 1_000_000;
    expect(queueHealth(null, at)).toEqual({ ok: true, detail: 'pg-boss running' });
    const error = { message: 'Connection terminated', at };
    expect(queueHealth(error, at + 1000)).toEqual({ ok: false, detail: 'Connection terminated' });
    expect(queueHealth(error, at + QUEUE_ERROR_MEMORY_MS)).toEqual({
      ok: false,
      detail: 'Connection terminated',
    });
    expect(queueHealth(error, at + QUEUE_ERROR_MEMORY_MS + 1)).toEqual({
      ok: true,
      detail: 'pg-boss running',
    });
  });
});
