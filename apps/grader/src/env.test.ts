import { describe, expect, it } from 'vitest';
import { GraderEnvError, parseGraderEnv } from './env.ts';

describe('parseGraderEnv', () => {
  it('needs DATABASE_URL and says so by name', () => {
    expect(() => parseGraderEnv({})).toThrow(GraderEnvError);
    expect(() => parseGraderEnv({})).toThrow(/DATABASE_URL: required/);
    expect(() => parseGraderEnv({ DATABASE_URL: '' })).toThrow(/DATABASE_URL/);
    expect(() => parseGraderEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: a postgres/);
  });

  it('reads defaults and the API’s duration format', () => {
    const env = parseGraderEnv({ DATABASE_URL: 'postgres://u@h/db' });
    expect(env).toMatchObject({
      DATA_DIR: './data',
      GRADER_CONCURRENCY: 0,
      GRADING_TIMEOUT: 300,
      GRADER_HEARTBEAT_SECONDS: 5,
      DATABASE_POOL_SIZE: 4,
    });
    expect(parseGraderEnv({ DATABASE_URL: 'postgresql://h/db', GRADING_TIMEOUT: '2m' }).GRADING_TIMEOUT).toBe(
      120,
    );
  });

  it('names each bad variable', () => {
    const bad = () =>
      parseGraderEnv({ DATABASE_URL: 'postgres://h/db', GRADER_CONCURRENCY: '-1', GRADING_TIMEOUT: 'soon' });
    expect(bad).toThrow(/GRADER_CONCURRENCY/);
    expect(bad).toThrow(/GRADING_TIMEOUT: a number of seconds/);
  });
});
