import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { canonicalTimeZone } from '@kadai/contracts';
import { storageEnvProblems, storageEnvShape } from '@kadai/storage';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A duration in seconds: a plain number (`7200`) or with a unit (`2h`, `14d`, `30m`, `45s`). */
const seconds = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'a number of seconds, or a number with s, m, h or d')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.trim().slice(-1);
    const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
    return n * factor;
  })
  .pipe(z.number().int().min(1));

/**
 * Which proxies in front of the API may tell it the client's address (`X-Forwarded-For`). `true` must
 * never mean "trust every hop": the left-most entry is written by the client itself, and sign-in
 * throttling per address would be worthless. So `true` trusts proxies on loopback and private networks
 * (a reverse proxy or load balancer beside the API), a list names the proxies' addresses or networks,
 * and a number trusts that many hops (only when nothing can reach the API except through them).
 */
const PRIVATE_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const lower = value.toLowerCase();
    if (['false', '0', 'no'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return PRIVATE_PROXIES;
    if (/^\d+$/.test(value)) return Math.min(Number(value), 10);
    const entries = value.split(',').map((entry) => entry.trim());
    const address = /^([0-9a-f.:]+)(\/\d{1,3})?$/i;
    if (entries.some((entry) => !address.test(entry) && !PRIVATE_PROXIES.includes(entry))) {
      ctx.addIssue({
        code: 'custom',
        message:
          'false, true (proxies on loopback and private networks), proxy addresses or networks separated by commas, or a number of hops',
      });
      return z.NEVER;
    }
    return entries;
  });

/** `example.ac.jp, Example.edu` → `['example.ac.jp', 'example.edu']`. */
const emailDomains = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
      .filter((domain) => domain.length > 0),
  )
  .pipe(
    z
      .array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'domains separated by commas (example.ac.jp)'))
      .min(1),
  );

/** An IANA time zone (`Asia/Tokyo`, `UTC`), as the list of the engine spells it. */
const ianaTimeZone = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone !== null) return zone;
    ctx.addIssue({ code: 'custom', message: 'an IANA time zone such as Asia/Tokyo, or UTC' });
    return z.NEVER;
  });

/**
 * Connections per API process by default: twice this machine's CPUs, at least 4 (docs/performance.md,
 * "Pool size"). More connections than PostgreSQL has cores to run them only queue inside the server:
 * on 2 cores, 10 connections cost 15–25 % more PostgreSQL CPU per list page than 4, and answered slower.
 */
export const defaultPoolSize = () => Math.max(4, 2 * os.availableParallelism());

/**
 * Every environment variable the API reads, parsed once. README's configuration table lists the same
 * names; a test checks that the two agree.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection string')
    .optional(),
  // Start-up holds one connection for the migration lock while the migrator uses another.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(defaultPoolSize),
  /** The address users reach; unset: `defaultPublicUrl(HOST, PORT)` (below). */
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  // The web app refreshes a token that expires within 3600 s: a shorter lifetime would refresh on every call.
  ACCESS_TOKEN_LIFETIME: seconds
    .pipe(z.number().min(3601, 'longer than the web app’s 3600 s refresh threshold (e.g. 2h)'))
    .default(7200),
  REFRESH_TOKEN_LIFETIME: seconds.default(14 * 86_400),
  // How long an API process remembers the caller of a live session (0: read the session on every
  // request). Revocation still takes effect at once: see lib/session-cache.ts.
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  SET_PASSWORD_LINK_LIFETIME: seconds.default(7 * 86_400),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  LOGIN_THROTTLE_WINDOW: seconds.default(900),
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The bearer token of `GET /metrics` (Prometheus, docs/operations.md). Unset: no metrics are kept and
   * `/metrics` answers 404.
   */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').max(200).optional(),
  /**
   * Where traces go (an OpenTelemetry collector's OTLP endpoint, docs/operations.md "Traces"); unset: no
   * traces. The SDK reads it and its other OTEL_* variables itself; the app reads it to trace requests.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  SEED_DEMO: bool.default(true),
  RUN_GRADER: bool.default(true),
  /** Short API calls one process serves at once; the next is refused with 503 `overloaded` (0: no bound). */
  MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(128),
  /** The event loop's mean delay past which new API calls are refused with 503 `overloaded` (0: no bound). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Test cases run at once by one grader process; 0 means one per CPU core. */
  GRADER_CONCURRENCY: z.coerce.number().int().min(0).max(256).default(0),
  /** A grading attempt not finished within this long is given up and retried (a dead grader's job). */
  GRADING_TIMEOUT: seconds.default(300),
  ...storageEnvShape,
  SIGNED_URL_LIFETIME: seconds.default(300),
  PRODUCT_NAME: z.string().min(1).max(60).default('Kadai'),
  /** The zone of every course that names none (docs/courses.md, "Time zone"). */
  DEFAULT_TIME_ZONE: ianaTimeZone.default('Asia/Tokyo'),
  PROVIDER_URL: z.url().default('https://github.com/'),
  /** The OAuth client of Google sign-in; unset → no Google button, and its route answers 404. */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  /** Google's OpenID Connect userinfo endpoint; tests point it at a local server that answers as Google does. */
  GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  /** Google's tokeninfo endpoint: says which OAuth client an access token was issued to. */
  GOOGLE_TOKENINFO_URL: z.url().default('https://oauth2.googleapis.com/tokeninfo'),
  /** Google's identity script, loaded by the login page; its origin is allowed in the page's CSP. */
  GOOGLE_SCRIPT_URL: z.url().default('https://accounts.google.com/gsi/client'),
  /**
   * Whoever proves an e-mail address (a verified Google account, or the link of a verification e-mail
   * after `POST Auth/Email/Registration/`) may create their own account.
   */
  SELF_REGISTRATION: bool.default(false),
  /**
   * Identity providers declared by configuration (docs/sign-in.md): a JSON array of the bodies
   * `POST /api/IdentityProvider/` takes. Made or updated at start-up; read-only in the app.
   */
  IDENTITY_PROVIDERS: z.string().max(1_000_000).optional(),
  /** E-mail domains allowed to sign in with Google or register (a domain also admits its subdomains). */
  ALLOWED_EMAIL_DOMAINS: emailDomains.optional(),
  /** The SMTP server e-mail goes through; unset → e-mails stay in the outbox (`kept`) for staff to read. */
  SMTP_HOST: z.string().trim().min(1).max(253).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(587),
  /** Implicit TLS from the first byte (port 465); false → plain, upgraded with STARTTLS when offered. */
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().min(1).max(500).optional(),
  SMTP_PASSWORD: z.string().min(1).max(500).optional(),
  /** The sender of every e-mail; default `"PRODUCT_NAME" <no-reply@localhost>`. */
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  /** Seconds before the first retry of a failed send; each later retry waits about twice as long. */
  SMTP_RETRY_DELAY: seconds.default(30),
  /** How long a person's data export (a zip) can be downloaded before it is deleted (docs/privacy.md). */
  DATA_EXPORT_LIFETIME: seconds.default(7 * 86_400),
  /** Erasing a person keeps their submissions' scores, results and quiz answers under the pseudonym. */
  ERASURE_KEEP_GRADES: bool.default(true),
  /** Erasing a person replaces (`replace`) or keeps (`keep`) what they wrote in the forum. */
  ERASURE_FORUM_TEXT: z.enum(['replace', 'keep']).default('replace'),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * HTTP Basic credentials of `POST Forum/scheduled-announcements/finalize`, for an outside scheduler
   * (cron). Unset: the route answers 404 and only the built-in job publishes scheduled announcements.
   */
  FORUM_FINALIZE_USER: z.string().min(1).max(200).optional(),
  FORUM_FINALIZE_PASSWORD: z.string().min(16, 'at least 16 characters').max(200).optional(),
  /** A Vimeo personal access token (scopes public, private) for syncing course videos. */
  VIMEO_ACCESS_TOKEN: z.string().min(1).max(500).optional(),
  /** Vimeo's REST API; tests point it at a local server that answers as Vimeo does. */
  VIMEO_API_URL: z.url().default('https://api.vimeo.com'),
  /** Where the Vimeo player is embedded from: `{VIMEO_PLAYER_URL}{video id}`. */
  VIMEO_PLAYER_URL: z.url().default('https://player.vimeo.com/video/'),
  /** Where the YouTube player is embedded from: `{YOUTUBE_EMBED_URL}{video id}`. */
  YOUTUBE_EMBED_URL: z.url().default('https://www.youtube-nocookie.com/embed/'),
  /** The largest lecture video file an editor may upload, in MB (stored with the other files). */
  VIDEO_MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(20_000).default(500),
  /**
   * Workbook kernels this process runs at once (an API instance, or `npm run kernels`); 0: none here,
   * sessions go to the kernel hosts. With no room on any live host a new session is refused (429).
   */
  WORKBOOK_MAX_KERNELS: z.coerce.number().int().min(0).max(1000).default(20),
  /**
   * Where the other instances reach this process's internal kernel endpoints (docs/workbooks.md,
   * "Kernels"); default `http://127.0.0.1:<port>`, right only when every instance is on this machine.
   */
  INTERNAL_URL: z.url().optional(),
  /** The port `npm run kernels` listens on (on HOST). */
  KERNEL_HOST_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
});
export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, 'JWT_SECRET'> {
  JWT_SECRET: string;
  publicUrl: string;
  dataDir: string;
}

export class ConfigError extends Error {}

/** Parses the environment; a bad value stops start-up with a message naming the variable. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const problems = storageEnvProblems(result.data);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return result.data;
}

/** The JWT secret is generated on first start and kept beside the data, so restarts keep sessions. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}

/** Addresses that mean "this machine" to a browser on it: every interface (wildcards) or loopback. */
const THIS_MACHINE = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/**
 * PUBLIC_URL when it is not set: `http://localhost:PORT` when HOST is a wildcard or loopback address
 * (a browser on this machine reaches it there), else `http://HOST:PORT` (an IPv6 address in brackets).
 */
export function defaultPublicUrl(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (THIS_MACHINE.has(bare.toLowerCase())) return `http://localhost:${port}`;
  return `http://${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = parseEnv(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    ...parsed,
    dataDir,
    JWT_SECRET: parsed.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    publicUrl: (parsed.PUBLIC_URL ?? defaultPublicUrl(parsed.HOST, parsed.PORT)).replace(/\/$/, ''),
  };
}

/** `loadConfig()` for a process's start: a bad variable ends it with the message naming it. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
