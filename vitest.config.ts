import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The web test files (relative to apps/web) that run in a project of their own with `isolate: true`:
 * - those that replace a module with `vi.mock`: in the shared module cache of the `web` project, a page
 *   another file had already loaded keeps the real module, so whether the mock applied depended on the
 *   order the files ran in;
 * - those that drive CodeMirror itself (they import `@codemirror/…`), which the `web` project replaces
 *   with a text area (CODE_MIRROR_STAND_IN below).
 */
function webFilesOnTheirOwn(): string[] {
  const root = path.join(import.meta.dirname, 'apps/web');
  return readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.join('src', file))
    .filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      return text.includes('vi.mock(') || text.includes("from '@codemirror/");
    })
    .map((file) => file.split(path.sep).join('/'));
}
const WEB_ON_THEIR_OWN = webFilesOnTheirOwn();

/**
 * In the web tests CodeEditor.tsx loads a text area (src/test/CodeMirrorStandIn.tsx) where the app loads
 * CodeMirror, which measures text jsdom does not lay out. An alias rather than `vi.mock` in each file:
 * the files that show code then share the `web` project's modules (one jsdom, one load of the app per
 * worker) instead of each building its own, which cost about 6 s of CPU per file.
 */
const CODE_MIRROR_STAND_IN = {
  find: /^\.\/CodeMirrorEditor\.tsx$/,
  replacement: path.join(import.meta.dirname, 'apps/web/src/test/CodeMirrorStandIn.tsx'),
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/**/src/**/*.test.ts',
            'apps/grader/src/**/*.test.ts',
            'apps/api/src/**/*.unit.test.ts',
            'scripts/**/*.test.mjs',
          ],
          environment: 'node',
          // The unit and web projects run as one group, which vitest requires to share maxWorkers.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          exclude: ['apps/api/src/**/*.unit.test.ts', 'apps/api/test/cluster/**'],
          environment: 'node',
          globalSetup: ['apps/api/test/global-setup.ts'],
          // Each file holds a whole PGlite (0.5–0.9 GB); two at a time fit two cores.
          pool: 'forks',
          maxWorkers: 2,
          // A worker runs file after file in one process: the API's modules (Fastify, drizzle, the
          // contracts, PGlite's WebAssembly) load once per worker instead of once per file (import
          // 160 s → 16 s of the run). Every file still builds its own app on its own database;
          // module-level state that outlives a file must not decide another's answer.
          isolate: false,
          // Vitest runs projects with different maxWorkers in separate groups: the API files run after
          // the unit and web tests (without this, `vitest run` of all projects refuses to start).
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Real processes on a real PostgreSQL server (apps/api/test/cluster): run on its own by
          // `npm test` (scripts/test.mjs), never beside the other projects, which would starve it.
          name: 'cluster',
          include: ['apps/api/test/cluster/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          alias: [CODE_MIRROR_STAND_IN],
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: WEB_ON_THEIR_OWN,
          environment: 'jsdom',
          // One jsdom and one load of React, Mantine and the app per worker, not per file (4× less CPU
          // for the project). src/test/setup.ts gives each file a fresh session and language.
          isolate: false,
          maxWorkers: 2,
          // Page-level tests render the app in jsdom while the unit project's sandbox runs share the two
          // cores: 0.5 s alone, past vitest's default 5 s once under that load.
          testTimeout: 15_000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          // The files that vi.mock a module or drive CodeMirror, each with modules of its own (see
          // webFilesOnTheirOwn).
          name: 'web-isolated',
          root: './apps/web',
          include: WEB_ON_THEIR_OWN,
          environment: 'jsdom',
          isolate: true,
          maxWorkers: 2,
          testTimeout: 15_000,
        },
      },
    ],
  },
});
