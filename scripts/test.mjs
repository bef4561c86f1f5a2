// `npm test`: the whole suite. System packages first (installed when we are root with apt, otherwise
// the exact command is printed and the run fails), then type-check + lint + layers + format, unit + API + web
// tests (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), the web build, and the browser journeys.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });

// --- system packages ---------------------------------------------------------------------------
const has = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const dpkgInstalled = (pkg) =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes(
    'install ok installed',
  );
const needed = [
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  // The journeys run in Chromium's headless shell: the same engine, a third less CPU (playwright.config.ts).
  { pkg: 'chromium-headless-shell', present: () => existsSync('/usr/bin/chromium-headless-shell') },
  { pkg: 'fonts-noto-cjk', present: () => dpkgInstalled('fonts-noto-cjk') },
  { pkg: 'bubblewrap', present: () => has('bwrap', ['--version']) },
  { pkg: 'python3', present: () => existsSync('/usr/bin/python3') },
  // Workbooks draw charts and tables in the sandbox's Python (the journeys plot with matplotlib).
  { pkg: 'python3-numpy', present: () => dpkgInstalled('python3-numpy') },
  { pkg: 'python3-pandas', present: () => dpkgInstalled('python3-pandas') },
  { pkg: 'python3-matplotlib', present: () => dpkgInstalled('python3-matplotlib') },
  // pytest test cases run Debian's pytest in the sandbox (apps/grader/src/pytest-harness.ts).
  { pkg: 'python3-pytest', present: () => dpkgInstalled('python3-pytest') },
];
const missing = needed.filter((n) => !n.present()).map((n) => n.pkg);
if (missing.length > 0) {
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && has('apt-get', ['--version'])) {
    console.log(`Installing system packages the tests need: ${missing.join(', ')}`);
    const r = spawnSync('bash', ['-c', command], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      console.error(`Installing failed. Run as root: ${command}`);
      process.exit(1);
    }
  } else {
    console.error(
      `The tests need these Debian packages: ${missing.join(', ')}.\nRun as root:\n  sudo ${command}`,
    );
    process.exit(1);
  }
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

for (const f of ['vitest.json', 'vitest-pg.json', 'playwright.json'])
  rmSync(path.join(tmp, f), { force: true });

if (!step('type-check, lint, layers, format, commit subjects', 'npm', ['run', 'check', '--silent']))
  finish(false);

// The embedded database always gets its own run: the harness switches to PostgreSQL whenever
// TEST_DATABASE_URL is set, so it is cleared here and given only to the PostgreSQL step below.
const vitestOk = step(
  'unit, API (PGlite) and web tests',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(tmp, 'vitest.json')}`],
  { TEST_DATABASE_URL: '' },
);
countVitest(path.join(tmp, 'vitest.json'));
if (!vitestOk) finish(false);

if (process.env.TEST_DATABASE_URL) {
  const pgOk = step(
    `API tests on PostgreSQL (${process.env.TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')})`,
    bin('vitest'),
    [
      'run',
      '--project',
      'api',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(tmp, 'vitest-pg.json')}`,
    ],
  );
  countVitest(path.join(tmp, 'vitest-pg.json'));
  if (!pgOk) finish(false);
}

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
