// `npm test`: the whole suite. System packages first (installed when we are root with apt, otherwise
// the exact command is printed and the run fails), then type-check + lint + layers + format, unit + API + web
// tests (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), the web build, and the browser journeys.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROWSER_PACKAGES, SANDBOX_PACKAGES, ensurePackages } from './system-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });

// --- system packages ---------------------------------------------------------------------------
const packages = ensurePackages([...BROWSER_PACKAGES, ...SANDBOX_PACKAGES], 'the tests need');
if (!packages.ok) {
  console.error(
    `The tests need these Debian packages: ${packages.missing.join(', ')}.\nRun as root:\n  sudo ${packages.command}`,
  );
  process.exit(1);
}

// --- steps -------------------------------------------------------------------------------------
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();

function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  console.log(`◀ ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const stats = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
}

function finish(ok) {
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`\nWhole suite ${ok ? 'passed' : 'FAILED'} in ${minutes} min.`);
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

// Each vitest step removes its own report before it runs (vitestStep); the journeys' is removed here.
rmSync(path.join(tmp, 'playwright.json'), { force: true });

if (!step('type-check, lint, layers, format, commit subjects', 'npm', ['run', 'check', '--silent']))
  finish(false);

/**
 * One vitest run of `projects` (and only `files`, when given) as a step: its JSON report counted into
 * the totals, and the whole suite stopped when it fails.
 */
function vitestStep(name, { projects, files = [], report, env = {} }) {
  const file = path.join(tmp, report);
  rmSync(file, { force: true });
  const ok = step(
    name,
    bin('vitest'),
    [
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
      ...files,
    ],
    env,
  );
  countVitest(file);
  if (!ok) finish(false);
}

// The embedded database always gets its own run: the harness switches to PostgreSQL whenever
// TEST_DATABASE_URL is set, so it is cleared here and given only to the PostgreSQL step below.
vitestStep('unit, API (PGlite) and web tests', {
  projects: ['unit', 'api', 'web', 'web-mocked'],
  report: 'vitest.json',
  env: { TEST_DATABASE_URL: '' },
});

// The file tests of every feature again on the other two stores (docs/storage.md): the database
// (STORAGE=postgres, on PGlite) and S3 (a real S3-speaking server the run starts on 127.0.0.1). They
// take the template the run above made, so each run costs its tests only (~18 s).
const FILE_TESTS = [
  'apps/api/src/features/assignments/files.test.ts',
  'apps/api/src/features/assignments/bundles.test.ts',
  'apps/api/src/features/assignments/bundle-refusals.test.ts',
  'apps/api/src/features/forum/files.test.ts',
  'apps/api/src/features/forum/files.repo.test.ts',
  'apps/api/src/features/videos/files.test.ts',
];
for (const store of ['postgres', 's3']) {
  vitestStep(`file tests on STORAGE=${store}`, {
    projects: ['api'],
    files: FILE_TESTS,
    report: `vitest-files-${store}.json`,
    env: { TEST_DATABASE_URL: '', TEST_STORAGE: store, TEST_REUSE_TEMPLATE: 'true' },
  });
}

if (process.env.TEST_DATABASE_URL) {
  vitestStep(`API tests on PostgreSQL (${process.env.TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')})`, {
    projects: ['api'],
    report: 'vitest-pg.json',
  });
}

// Two APIs, a grader and kernel hosts as separate processes on a PostgreSQL server (TEST_DATABASE_URL's,
// else the local one on 127.0.0.1:5432); the file skips itself, saying so, when there is no server.
vitestStep('cluster on PostgreSQL (processes, proxy, outage)', {
  projects: ['cluster'],
  report: 'vitest-cluster.json',
});

const buildArgs = ['run', 'build', '--silent', '-w', '@kadai/web', '--', '--logLevel', 'warn'];
if (!step('web build', 'npm', buildArgs)) finish(false);

const e2eOk = step(
  'browser journeys (Chromium)',
  bin('playwright'),
  ['test', '-c', 'apps/web/playwright.config.ts'],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(tmp, 'playwright.json'),
  },
);
countPlaywright(path.join(tmp, 'playwright.json'));
finish(e2eOk);
