import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { seedDemoData, DEMO_ACCOUNTS } from '../../src/demo/seed.ts';
import { courseEditors, courseStudents, users } from '../../src/db/schema.ts';
import { addEditor, createCourse, createUser, tokenFor } from '../factories.ts';
import { call, type TestApp } from '../harness.ts';
import {
  readOperations,
  requests,
  toRequest,
  validValues,
  type FuzzRequest,
  type Operation,
  type RequestValues,
} from './operations.ts';
import { poison, stringCount, type Components } from './arbitraries.ts';

/**
 * The fuzzer of docs/development.md, "Fuzzing": every operation of the OpenAPI document, as every kind
 * of caller, with requests generated from the operation's own schemas and broken copies of them.
 * The property of every answer: no 5xx; a refusal is `{detail, code}` with a status the document
 * declares (or one any route may give); and a refused request changes nothing in the database.
 */
export const CALLERS = ['anonymous', 'student', 'outsider', 'editor', 'staff'] as const;
export type Caller = (typeof CALLERS)[number];

/** Statuses any route may answer besides those it declares: Fastify's own and the throttle's. */
const ANY_ROUTE = new Set([400, 404, 405, 406, 413, 414, 415, 429]);

/**
 * Tables a refusal may write: failed sign-ins are counted (that is the throttle), and the hosts'
 * heartbeats tick on their own.
 */
const WRITTEN_BY_REFUSALS = new Set(['login_throttle', 'kernel_hosts', 'grader_hosts']);

export interface FuzzWorld {
  t: TestApp;
  operations: Operation[];
  components: Components;
  /** Account ids per caller (anonymous: none). */
  ids: Record<Exclude<Caller, 'anonymous'>, number>;
  tokens: Record<Caller, string | undefined>;
  fingerprint: Fingerprint;
}

/**
 * The demo world (two courses with assignments, quizzes, posts, videos, workbooks, assessment) plus
 * an outsider: an editor of a third course, to whom every demo object belongs to another course.
 */
export async function createFuzzWorld(t: TestApp): Promise<FuzzWorld> {
  await seedDemoData(t.ctx);
  const outsiderCourse = await createCourse(t, { title: 'Outsiders' });
  const outsider = await createUser(t, { email: 'outsider@example.com' });
  await addEditor(t, outsiderCourse.id, outsider.id);
  const idOf = async (email: string) => {
    const [row] = await t.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.email} = ${email}`);
    return row!.id;
  };
  const ids = {
    student: await idOf(DEMO_ACCOUNTS.students[0]!.email),
    outsider: outsider.id,
    editor: await idOf(DEMO_ACCOUNTS.editor.email),
    staff: await idOf(DEMO_ACCOUNTS.staff.email),
  };
  const doc = await call(t, 'GET', '/api/docs/json');
  const { operations, components } = readOperations(doc.body);
  const world: FuzzWorld = {
    t,
    operations: order(operations),
    components,
    ids,
    tokens: { anonymous: undefined, student: '', outsider: '', editor: '', staff: '' },
    fingerprint: await Fingerprint.create(t),
  };
  return world;
}

/** Reads first, then writes, deletes last: what one operation deletes the next cannot use. */
function order(operations: Operation[]): Operation[] {
  const rank = (op: Operation) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].indexOf(op.method);
  return [...operations].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}

/**
 * Before each operation, the callers are who they were: active, staff still staff, members still
 * members, with a fresh session each (a previous request may have signed one out everywhere,
 * deactivated or demoted an account). Objects stay changed: that is part of what the fuzzer explores.
 */
export async function restoreCallers(world: FuzzWorld): Promise<void> {
  const { t, ids } = world;
  // An account a DELETE removed comes back as a new one in the same place.
  for (const caller of ['student', 'outsider', 'editor', 'staff'] as const) {
    const { rows } = await t.database.query(`SELECT 1 FROM users WHERE id = $1`, [ids[caller]]);
    if (rows.length === 0) ids[caller] = (await createUser(t, { isStaff: caller === 'staff' })).id;
  }
  await t.ctx.db
    .update(users)
    .set({ isActive: true, isStaff: sql`${users.id} = ${ids.staff}` })
    .where(sql`${users.id} in (${ids.student}, ${ids.outsider}, ${ids.editor}, ${ids.staff})`);
  await t.database.query(`DELETE FROM login_throttle`);
  const courseIds = await t.database.query(`SELECT id FROM courses ORDER BY id LIMIT 2`);
  const [first, second] = courseIds.rows.map((row) => Number(row.id));
  if (first !== undefined) {
    await t.ctx.db
      .insert(courseStudents)
      .values({ courseId: first, userId: ids.student })
      .onConflictDoNothing();
    await t.ctx.db
      .insert(courseEditors)
      .values({ courseId: first, userId: ids.editor })
      .onConflictDoNothing();
  }
  if (second !== undefined) {
    await t.ctx.db
      .insert(courseEditors)
      .values({ courseId: second, userId: ids.editor })
      .onConflictDoNothing();
  }
  for (const caller of ['student', 'outsider', 'editor', 'staff'] as const) {
    world.tokens[caller] = await tokenFor(t, { id: ids[caller] });
  }
}

/**
 * A digest of every row of the application's tables. Cheap to skip: PostgreSQL's WAL insert position
 * moves on every write, so the digest is recomputed only when it moved.
 */
export class Fingerprint {
  private position = '';
  private digest = '';

  private constructor(
    private readonly t: TestApp,
    private readonly digestQuery: string,
  ) {}

  static async create(t: TestApp): Promise<Fingerprint> {
    const { rows } = await t.database.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    const tables = rows.map((row) => String(row.name)).filter((name) => !WRITTEN_BY_REFUSALS.has(name));
    const parts = tables.map(
      (name) =>
        `SELECT '${name}' AS name, md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS hash FROM ONLY public."${name}" t`,
    );
    return new Fingerprint(
      t,
      `SELECT string_agg(name || '=' || hash, ' ' ORDER BY name) AS digest FROM (${parts.join(' UNION ALL ')}) x`,
    );
  }

  private async walPosition(): Promise<string> {
    const { rows } = await this.t.database.query(`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    return String(rows[0]?.lsn);
  }

  /** The digest now (recomputed only when the WAL moved since the last call). */
  async now(): Promise<string> {
    const position = await this.walPosition();
    if (position !== this.position || this.digest === '') {
      const { rows } = await this.t.database.query(this.digestQuery);
      this.digest = String(rows[0]?.digest);
      this.position = await this.walPosition();
    }
    return this.digest;
  }
}

export interface Answered {
  status: number;
  body: unknown;
}

async function send(world: FuzzWorld, op: Operation, caller: Caller, req: FuzzRequest): Promise<Answered> {
  const headers: Record<string, string> = {};
  const token = world.tokens[caller];
  if (token) headers.authorization = `Bearer ${token}`;
  if (req.payload !== undefined) headers['content-type'] = 'application/json';
  const response = await world.t.app.inject({
    method: op.method as 'GET',
    url: req.url,
    query: req.query,
    headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
  let body: unknown = response.body;
  try {
    body = JSON.parse(response.body);
  } catch {
    // Not JSON (a file, CSV, HTML): only a refusal must be JSON.
  }
  return { status: response.statusCode, body };
}

/** What is wrong with an answer, or undefined. */
export function problemWith(op: Operation, answer: Answered): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`;
  if (answer.status < 400) return undefined;
  const body = answer.body;
  if (
    body === null ||
    typeof body !== 'object' ||
    typeof (body as { detail?: unknown }).detail !== 'string' ||
    typeof (body as { code?: unknown }).code !== 'string'
  ) {
    return `refused with ${answer.status} without {detail, code}: ${JSON.stringify(body).slice(0, 300)}`;
  }
  if (!op.statuses.has(answer.status) && !ANY_ROUTE.has(answer.status)) {
    return `answered ${answer.status} (${(body as { code: string }).code}), which the document does not declare`;
  }
  return undefined;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per operation and caller. */
  runs: number;
  /** Shrink a failure to a smaller request (slower; the world keeps changing while it shrinks). */
  shrink?: boolean;
}

/** A seed per operation and caller, from the run's seed: one failing cell reproduces on its own. */
function cellSeed(seed: number, op: Operation, caller: Caller): number {
  let hash = seed | 0;
  for (const char of `${op.method} ${op.path} ${caller}`)
    hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Sends one request and checks the property; throws what is wrong. Returns the status. */
async function check(world: FuzzWorld, op: Operation, caller: Caller, req: FuzzRequest): Promise<number> {
  const before = await world.fingerprint.now();
  const answer = await send(world, op, caller, req);
  const problem = problemWith(op, answer);
  const what = `${op.method} ${op.path} as ${caller}`;
  if (problem) throw new Error(`${what}: ${problem}\nrequest: ${JSON.stringify(req).slice(0, 2000)}`);
  if (answer.status >= 400 && (await world.fingerprint.now()) !== before) {
    throw new Error(
      `${what}: refused with ${answer.status} but changed the database\nrequest: ${JSON.stringify(req)}`,
    );
  }
  return answer.status;
}

/** Bases tried per operation and caller before the targeted pass gives up finding one that succeeds. */
const BASE_ATTEMPTS = 6;
/** Poison characters the targeted pass puts into every string of a request that succeeded. */
const TARGETED_POISON = ['\u0000', '\ud800'];

/**
 * Fuzzes one operation as every caller; throws on the first failure, with the request (and for the
 * random pass fast-check's seed and path). Two passes per caller:
 * - random: `runs` requests from fast-check (valid, poisoned or broken some other way);
 * - targeted: a valid request that succeeds, then the same request with NUL, then an unpaired
 *   surrogate, put into each of its strings in turn: every text field is tried where it reaches the
 *   handler and the database, which random requests reach only by chance.
 */
export async function fuzzOperation(world: FuzzWorld, op: Operation, options: FuzzOptions): Promise<number> {
  await restoreCallers(world);
  let sent = 0;
  for (const caller of CALLERS) {
    const seed = cellSeed(options.seed, op, caller);
    try {
      await fc.assert(
        fc.asyncProperty(requests(op, world.components), async (req) => {
          sent++;
          await check(world, op, caller, req);
        }),
        { seed, numRuns: options.runs, endOnFailure: !options.shrink },
      );
    } catch (error) {
      // What went wrong first, then fast-check's report (the seed and path that replay it).
      const cause = error instanceof Error && error.cause instanceof Error ? `${error.cause.message}\n` : '';
      throw new Error(`${cause}${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let base: RequestValues | undefined;
    for (const values of fc.sample(validValues(op, world.components), { seed, numRuns: BASE_ATTEMPTS })) {
      sent++;
      const status = await check(world, op, caller, toRequest(op, values));
      if (status < 300) {
        base = values;
        break;
      }
    }
    if (!base) continue;
    const parts = { ids: base.ids, query: base.query, body: base.body };
    const strings = stringCount(parts);
    for (let index = 0; index < strings; index++) {
      for (const character of TARGETED_POISON) {
        const poisoned = poison(parts, index, { with: character, at: 1 }) as RequestValues;
        sent++;
        await check(world, op, caller, toRequest(op, poisoned));
      }
    }
  }
  return sent;
}
