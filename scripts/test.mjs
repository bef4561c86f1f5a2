// `npm test`: the whole suite. System packages first (installed when we are root with apt, otherwise
// the exact command is printed and the run fails), then type-check + lint + layers + format, unit + API + web
// tests (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), the web build, and the browser journeys.
//
// Two steps run at a time (scripts/suite-steps.mjs), each as soon as what it needs has passed: the
// journeys keep about one core busy (they wait on pages, polls and grading) and vitest most of two, so
// one after the other left a core idle for minutes (docs/development.md, "What keeps the suite fast").
// Output lines carry the step's tag; the end prints each step's wall and CPU time (read from /proc,
// scripts/cpu-meter.mjs) and the whole run's CPU over wall time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessTreeMeter, TICKS_PER_SECOND, parseStat, readProcesses } from './cpu-meter.mjs';
import { runSteps, stepTable } from './suite-steps.mjs';
import {
  BROWSER_PACKAGES,
  IDENTITY_PEER_PACKAGES,
  METRICS_PEER_PACKAGES,
  SANDBOX_PACKAGES,
  ensurePackages,
} from './system-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const started = Date.now();
/** CPU seconds of the children this process has waited for (spawnSync's, in the package check). */
const waitedChildrenCpu = () =>
  parseStat(readFileSync('/proc/self/stat', 'utf8')).childTicks / TICKS_PER_SECOND;
const rows = [];

// --- system packages ---------------------------------------------------------------------------
// Before every step: the API tests (the vitest step) start SimpleSAMLphp from IDENTITY_PEER_PACKAGES
// and Prometheus from METRICS_PEER_PACKAGES.
const packages = ensurePackages(
  [...BROWSER_PACKAGES, ...SANDBOX_PACKAGES, ...IDENTITY_PEER_PACKAGES, ...METRICS_PEER_PACKAGES],
  'the tests need',
);
if (!packages.ok) {
  console.error(
    `The tests need these Debian packages: ${packages.missing.join(', ')}.\nRun as root:\n  sudo ${packages.command}`,
  );
  process.exit(1);
}
rows.push({
  name: 'system packages',
  outcome: 'passed',
  wallSeconds: (Date.now() - started) / 1000,
  cpuSeconds: waitedChildrenCpu(),
});

// --- steps -------------------------------------------------------------------------------------
const totals = { passed: 0, failed: 0, skipped: 0 };
/** The meters of the running steps, all fed by one reading of /proc every half second. */
const meters = new Set();
const sampler = setInterval(() => {
  const processes = readProcesses();
  for (const meter of meters) meter.sample(processes);
}, 500);

/** Prefixes every line of `stream` with the step's tag, so two steps' output can be told apart. */
function relay(stream, tag, out) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) out.write(`${tag} │ ${line}\n`);
  });
  stream.on('end', () => rest && out.write(`${tag} │ ${rest}\n`));
}

/**
 * A step of the run (scripts/suite-steps.mjs): `cmd args` in the repository with `env` added, its output
 * tagged, its wall and CPU time recorded for the table; `done` reads its report afterwards.
 */
function step(name, tag, { cmd, args, env = {}, after, done = () => {} }) {
  let child;
  return {
    name,
    after,
    stop: () => child?.kill('SIGINT'),
    run: () =>
      new Promise((resolve) => {
        const t0 = Date.now();
        console.log(`\n▶ ${name}`);
        child = spawn(cmd, args, {
          cwd: root,
          env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const meter = new ProcessTreeMeter(child.pid);
        meters.add(meter);
        const label = tag.padEnd(9);
        relay(child.stdout, label, process.stdout);
        relay(child.stderr, label, process.stderr);
        child.on('close', (code) => {
          meters.delete(meter);
          const ok = code === 0;
          const wallSeconds = (Date.now() - t0) / 1000;
          const cpuSeconds = meter.cpuSeconds();
          rows.push({ name, outcome: ok ? 'passed' : 'failed', wallSeconds, cpuSeconds });
          console.log(
            `◀ ${name}: ${ok ? 'ok' : 'FAILED'} in ${wallSeconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s)`,
          );
          done();
          resolve(ok);
        });
      }),
  };
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
  const wallSeconds = (Date.now() - started) / 1000;
  const own = process.cpuUsage();
  const cpuSeconds = rows.reduce((sum, row) => sum + row.cpuSeconds, (own.user + own.system) / 1e6);
  console.log(`\n${stepTable(rows, { wallSeconds, cpuSeconds })}`);
  console.log(`\nWhole suite ${ok ? 'passed' : 'FAILED'} in ${(wallSeconds / 60).toFixed(1)} min.`);
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

// Each vitest step removes its own report before it runs (vitestStep); the journeys' is removed here.
rmSync(path.join(tmp, 'playwright.json'), { force: true });

/**
 * One vitest run of `projects` (and only `files`, when given) as a step, its JSON report counted into
 * the totals.
 */
function vitestStep(name, tag, { projects, files = [], report, env = {}, after }) {
  const file = path.join(tmp, report);
  rmSync(file, { force: true });
  return step(name, tag, {
    cmd: bin('vitest'),
    args: [
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
      ...files,
    ],
    env,
    after,
    done: () => countVitest(file),
  });
}

const CHECK = 'type-check, lint, layers, format, commit subjects';
const VITEST = 'unit, API (PGlite) and web tests';
const BUILD = 'web build';

// In order of precedence: of the steps that may start, the first in this list takes a free slot. The
// build and the journeys come early because the journeys are the longest step; the cluster comes
// last, as it mostly waits (for its processes, the outage) and fills whichever slot frees first.
const steps = [
  step(CHECK, 'check', { cmd: 'npm', args: ['run', 'check', '--silent'] }),
  step(BUILD, 'build', {
    cmd: 'npm',
    args: ['run', 'build', '--silent', '-w', '@kadai/web', '--', '--logLevel', 'warn'],
  }),
  step('browser journeys (Chromium)', 'journeys', {
    cmd: bin('playwright'),
    args: ['test', '-c', 'apps/web/playwright.config.ts'],
    // The server the config starts would otherwise check the build's freshness again. No traces: a
    // failure here prints its error and screenshots; re-run the journey alone to get its trace.
    env: {
      PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(tmp, 'playwright.json'),
      SKIP_WEB_BUILD: 'true',
      E2E_TRACE: 'off',
    },
    after: [BUILD],
    done: () => countPlaywright(path.join(tmp, 'playwright.json')),
  }),
  // The embedded database always gets its own run: the harness switches to PostgreSQL whenever
  // TEST_DATABASE_URL is set, so it is cleared here and given only to the PostgreSQL step below.
  vitestStep(VITEST, 'vitest', {
    projects: ['unit', 'api', 'web', 'web-isolated'],
    report: 'vitest.json',
    env: { TEST_DATABASE_URL: '' },
  }),
];

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
  'apps/api/src/features/privacy/export.test.ts',
];
let previous = VITEST;
for (const store of ['postgres', 's3']) {
  const name = `file tests on STORAGE=${store}`;
  steps.push(
    vitestStep(name, `files:${store}`, {
      projects: ['api'],
      files: FILE_TESTS,
      report: `vitest-files-${store}.json`,
      env: { TEST_DATABASE_URL: '', TEST_STORAGE: store, TEST_REUSE_TEMPLATE: 'true' },
      // One store after the other, both after the run that made the template.
      after: [previous],
    }),
  );
  previous = name;
}

if (process.env.TEST_DATABASE_URL) {
  steps.push(
    vitestStep(
      `API tests on PostgreSQL (${process.env.TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')})`,
      'pg',
      { projects: ['api'], report: 'vitest-pg.json', after: [VITEST] },
    ),
  );
}

// Two APIs, a grader and kernel hosts as separate processes on a PostgreSQL server (TEST_DATABASE_URL's,
// else the local one on 127.0.0.1:5432); the file skips itself, saying so, when there is no server.
steps.push(
  vitestStep('cluster on PostgreSQL (processes, proxy, outage)', 'cluster', {
    projects: ['cluster'],
    report: 'vitest-cluster.json',
  }),
);

const outcomes = await runSteps(steps, { slots: 2 });
clearInterval(sampler);
for (const [name, outcome] of outcomes) {
  if (outcome === 'skipped') rows.push({ name, outcome, wallSeconds: 0, cpuSeconds: 0 });
}
finish([...outcomes.values()].every((outcome) => outcome === 'passed'));
