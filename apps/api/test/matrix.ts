import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, documentedRoutes, type TestApp, type TestAppOptions } from './harness.ts';

/**
 * The authorization matrices (`*.matrix.test.ts`): every route of a feature × every kind of caller →
 * the exact status. Each file declares its callers, a world factory and its rows; this runner walks
 * them, one `it` per row, and checks that the rows and the OpenAPI document name the same routes, so
 * a route added without a row fails.
 *
 * Worlds: a row's callers share one world, called in the order of `callers` (the most privileged
 * last), unless the row is `fresh` or a DELETE: then each caller gets a world of its own, so that a
 * caller who deletes, signs out or otherwise changes what the next caller would be answered cannot
 * decide another cell. A world costs far more than a call: sharing it per row is what keeps the
 * matrices fast (docs/development.md, "Tests").
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Cell<W, C extends string> {
  t: TestApp;
  world: W;
  caller: C;
}

/** What a cell was answered. */
export interface Answer {
  status: number;
  body?: unknown;
}

interface RowBase<W, C extends string> {
  method: Method;
  /** The path as the OpenAPI document names it. */
  route: string;
  /** Which case of the route the row walks, when it has several. */
  case?: string;
  /** A world per caller: one caller's success would change what a later one is answered. */
  fresh?: boolean;
  expected: Record<C, number>;
  /** More to check of a response with the expected status. */
  check?: (answer: Answer, cell: Cell<W, C>) => void;
}

/** A JSON request (or none) to `url`. */
interface CallRow<W, C extends string> extends RowBase<W, C> {
  url: (w: W, cell: Cell<W, C>) => string | Promise<string>;
  query?: (w: W, cell: Cell<W, C>) => Record<string, string>;
  body?: (w: W, cell: Cell<W, C>) => unknown;
  headers?: (w: W, cell: Cell<W, C>) => Record<string, string>;
  send?: never;
}

/** Any other request (an upload, a signed link): the row sends it itself. */
interface SendRow<W, C extends string> extends RowBase<W, C> {
  send: (w: W, token: string | undefined, cell: Cell<W, C>) => Promise<Answer>;
  url?: never;
}

export type MatrixRow<W, C extends string> = CallRow<W, C> | SendRow<W, C>;

/**
 * A browser's request (a navigation, or an HTML form post) for a SendRow: its Location header and text
 * are the body, so redirects can be checked.
 */
export async function browserRequest(
  t: TestApp,
  token: string | undefined,
  method: 'GET' | 'POST',
  url: string,
  form?: Record<string, string>,
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.statusCode, body: { location: res.headers.location, text: res.body } };
}

async function answer<W, C extends string>(
  row: MatrixRow<W, C>,
  cell: Cell<W, C>,
  token: string | undefined,
): Promise<Answer> {
  if (row.send) return row.send(cell.world, token, cell);
  return call(cell.t, row.method, await row.url(cell.world, cell), {
    token,
    query: row.query?.(cell.world, cell),
    body: await row.body?.(cell.world, cell),
    headers: row.headers?.(cell.world, cell),
  });
}

export interface Matrix<W, C extends string> {
  title: string;
  callers: readonly C[];
  world: (t: TestApp) => Promise<W>;
  /** The caller's access token in a world (undefined: anonymous). */
  token: (w: W, caller: C) => string | undefined | Promise<string | undefined>;
  rows: readonly MatrixRow<W, C>[];
  /** Which documented paths belong to this matrix: each must have a row, and each row's route exist. */
  owns: (path: string) => boolean;
  /** Options of the API under test, or a set-up that starts what it needs first (a fake provider). */
  app?: TestAppOptions | (() => Promise<{ app: TestAppOptions; close: () => Promise<void> }>);
  /** More tests that need the same API. */
  more?: (api: () => TestApp) => void;
}

export function rowName(row: { method: Method; route: string; case?: string }): string {
  return `${row.method} ${row.route}${row.case ? ` (${row.case})` : ''}`;
}

export function describeMatrix<W, C extends string>(matrix: Matrix<W, C>): void {
  describe(matrix.title, () => {
    let t: TestApp;
    let closeSetup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      let options: TestAppOptions | undefined;
      if (typeof matrix.app === 'function') {
        const setup = await matrix.app();
        options = setup.app;
        closeSetup = setup.close;
      } else {
        options = matrix.app;
      }
      t = await createTestApp(options);
    });
    afterAll(async () => {
      await t?.close();
      await closeSetup?.();
    });

    it('has a row for every route of the feature, and a route for every row', async () => {
      expect(await documentedRoutes(t, matrix.owns)).toEqual(
        [...new Set(matrix.rows.map((row) => `${row.method} ${row.route}`))].sort(),
      );
    });

    for (const row of matrix.rows) {
      it(rowName(row), async () => {
        const fresh = row.fresh === true || row.method === 'DELETE';
        const actual: Record<string, number> = {};
        const unexpected: string[] = [];
        let shared: W | undefined;
        for (const caller of matrix.callers) {
          const world = fresh || shared === undefined ? await matrix.world(t) : shared;
          shared = world;
          const cell: Cell<W, C> = { t, world, caller };
          const response = await answer(row, cell, await matrix.token(world, caller));
          actual[caller] = response.status;
          if (response.status === row.expected[caller]) row.check?.(response, cell);
          else
            unexpected.push(`${caller}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        }
        expect(actual, unexpected.join('\n')).toEqual(row.expected);
      });
    }

    matrix.more?.(() => t);
  });
}
