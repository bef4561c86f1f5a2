import { readFileSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, defaultPoolSize, defaultPublicUrl, loadConfig, parseEnv } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.ACCESS_TOKEN_LIFETIME).toBe(7200);
    expect(env.REFRESH_TOKEN_LIFETIME).toBe(14 * 86_400);
    expect(env.SEED_DEMO).toBe(true);
    expect(env.DEFAULT_TIME_ZONE).toBe('Asia/Tokyo');
  });

  it('takes DEFAULT_TIME_ZONE as an IANA zone, spelled as the zone list spells it', () => {
    expect(parseEnv({ DEFAULT_TIME_ZONE: 'America/New_York' }).DEFAULT_TIME_ZONE).toBe('America/New_York');
    expect(parseEnv({ DEFAULT_TIME_ZONE: ' utc ' }).DEFAULT_TIME_ZONE).toBe('UTC');
  });

  it('reads durations with units', () => {
    expect(parseEnv({ ACCESS_TOKEN_LIFETIME: '3h', REFRESH_TOKEN_LIFETIME: '30d' })).toMatchObject({
      ACCESS_TOKEN_LIFETIME: 10_800,
      REFRESH_TOKEN_LIFETIME: 2_592_000,
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['JWT_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['SEED_DEMO', 'maybe'],
    ['ACCESS_TOKEN_LIFETIME', 'forever'],
    ['DEFAULT_TIME_ZONE', 'Asia/Atlantis'],
    ['DEFAULT_TIME_ZONE', '+09:00'],
  ])('stops on a bad %s and names it', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(name));
  });

  it('never trusts every proxy hop: true is proxies on private networks, a list names them, a number counts hops', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toEqual(['loopback', 'linklocal', 'uniquelocal']);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses an access-token lifetime within the client refresh threshold, and a one-connection pool', () => {
    expect(() => parseEnv({ ACCESS_TOKEN_LIFETIME: '30m' })).toThrow(/ACCESS_TOKEN_LIFETIME/);
    expect(parseEnv({ ACCESS_TOKEN_LIFETIME: '3601' }).ACCESS_TOKEN_LIFETIME).toBe(3601);
    expect(() => parseEnv({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('sizes the connection pool by the machine: twice its CPUs, at least 4, unless set', () => {
    const cpus = os.availableParallelism();
    expect(parseEnv({}).DATABASE_POOL_SIZE).toBe(Math.max(4, 2 * cpus));
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(4);
    expect(parseEnv({ DATABASE_POOL_SIZE: '10' }).DATABASE_POOL_SIZE).toBe(10);
  });

  it('defaults PUBLIC_URL to localhost for a wildcard or loopback HOST, else to HOST', () => {
    for (const host of ['0.0.0.0', '::', '[::]', '127.0.0.1', '::1', '[::1]', 'localhost', 'LocalHost']) {
      expect(defaultPublicUrl(host, 3000), host).toBe('http://localhost:3000');
    }
    expect(defaultPublicUrl('192.0.2.10', 8080)).toBe('http://192.0.2.10:8080');
    expect(defaultPublicUrl('lms.internal', 3000)).toBe('http://lms.internal:3000');
    expect(defaultPublicUrl('2001:db8::5', 3000)).toBe('http://[2001:db8::5]:3000');
    // What the API builds its links from: the default without PUBLIC_URL, PUBLIC_URL (no trailing
    // slash) with it. JWT_SECRET is given so that nothing is written to DATA_DIR.
    const config = (env: Record<string, string>) =>
      loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: os.tmpdir(), ...env }).publicUrl;
    expect(config({})).toBe('http://localhost:3000');
    expect(config({ HOST: '127.0.0.1', PORT: '4000' })).toBe('http://localhost:4000');
    expect(config({ HOST: '10.1.2.3' })).toBe('http://10.1.2.3:3000');
    expect(config({ HOST: '10.1.2.3', PUBLIC_URL: 'https://lms.example.ac.jp/' })).toBe(
      'https://lms.example.ac.jp',
    );
  });

  it('is documented: README lists every variable', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(EnvSchema.shape)) expect(readme).toContain(`\`${name}\``);
  });
});
