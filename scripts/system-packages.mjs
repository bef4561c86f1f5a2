// The Debian packages Kadai needs, shared by `npm start` (the sandbox) and `npm test` (the sandbox and
// the browser journeys). When we are root with apt they are installed; otherwise the exact command is
// returned for the caller to print.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const has = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const dpkgInstalled = (pkg) =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes(
    'install ok installed',
  );

/** What the sandbox runs: grading, precheck, the console and workbook kernels. */
export const SANDBOX_PACKAGES = [
  { pkg: 'bubblewrap', present: () => has('bwrap', ['--version']) },
  { pkg: 'python3', present: () => existsSync('/usr/bin/python3') },
  // Workbooks draw charts and tables in the sandbox's Python (the journeys plot with matplotlib).
  { pkg: 'python3-numpy', present: () => dpkgInstalled('python3-numpy') },
  { pkg: 'python3-pandas', present: () => dpkgInstalled('python3-pandas') },
  { pkg: 'python3-matplotlib', present: () => dpkgInstalled('python3-matplotlib') },
  // pytest test cases run Debian's pytest in the sandbox (apps/grader/src/pytest-harness.ts).
  { pkg: 'python3-pytest', present: () => dpkgInstalled('python3-pytest') },
];

/**
 * What the API tests' identity providers run (apps/api/test/peers): SimpleSAMLphp as a SAML IdP under
 * `php -S`. Debian's simplesamlphp does not pull php8.2-xml, without which it cannot build XML.
 */
export const IDENTITY_PEER_PACKAGES = [
  { pkg: 'simplesamlphp', present: () => existsSync('/usr/share/simplesamlphp/www') },
  { pkg: 'php8.2-cli', present: () => existsSync('/usr/bin/php8.2') },
  { pkg: 'php8.2-xml', present: () => dpkgInstalled('php8.2-xml') },
];

/** What the metrics test scrapes with (apps/api/src/lib/metrics-prometheus.test.ts): a real Prometheus. */
export const METRICS_PEER_PACKAGES = [
  { pkg: 'prometheus', present: () => existsSync('/usr/bin/prometheus') },
];

/** What the browser journeys add. */
export const BROWSER_PACKAGES = [
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  // The journeys run in Chromium's headless shell: the same engine, a third less CPU (playwright.config.ts).
  { pkg: 'chromium-headless-shell', present: () => existsSync('/usr/bin/chromium-headless-shell') },
  { pkg: 'fonts-noto-cjk', present: () => dpkgInstalled('fonts-noto-cjk') },
];

/**
 * Installs the missing ones of `needed` when we are root with apt. Returns `{ ok: true }` when nothing
 * is missing afterwards, else `{ ok: false, missing, command }` with the command to run as root.
 */
export function ensurePackages(needed, purpose) {
  const missing = needed.filter((n) => !n.present()).map((n) => n.pkg);
  if (missing.length === 0) return { ok: true, missing: [] };
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !has('apt-get', ['--version'])) return { ok: false, missing, command };
  console.log(`Installing the Debian packages ${purpose}: ${missing.join(', ')}`);
  const r = spawnSync('bash', ['-c', command], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = needed.filter((n) => !n.present()).map((n) => n.pkg);
  return r.status === 0 && still.length === 0
    ? { ok: true, missing: [] }
    : { ok: false, missing: still, command };
}
