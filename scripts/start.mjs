// `npm start`: install the sandbox's Debian packages when root with apt (or print the command), build the
// web app if it is missing or older than its sources, then run the API, which migrates, seeds the demo
// courses on an empty database and serves the web app and the API on one port.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './run-ts.mjs';
import { SANDBOX_PACKAGES, ensurePackages } from './system-packages.mjs';

// Grading, precheck and workbooks run code only in the sandbox; without its packages they wait (health
// says why) and everything else works. INSTALL_SYSTEM_PACKAGES=false skips the install (images, CI).
if (process.env.INSTALL_SYSTEM_PACKAGES !== 'false') {
  const packages = ensurePackages(SANDBOX_PACKAGES, 'the sandbox needs');
  if (!packages.ok) {
    console.warn(
      `Grading is paused: the sandbox needs the Debian packages ${packages.missing.join(', ')}.\n` +
        `Install them as root, and grading starts by itself within a minute:\n  sudo ${packages.command}\n`,
    );
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

// The build's own plugins too: every vite*.ts beside the config (vite.config.ts, vite-page-texts.ts…).
const buildFiles = readdirSync(webDir).filter((entry) => /^vite.*\.ts$/u.test(entry));
const sources = ['src', 'index.html', 'public', 'package.json', ...buildFiles].map((p) =>
  path.join(webDir, p),
);
sources.push(path.join(root, 'packages/contracts/src'));
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map(newestMtime));

if (process.env.SKIP_WEB_BUILD !== 'true' && builtAt < sourcesAt) {
  console.log(
    builtAt === 0 ? 'Building the web app (first start)…' : 'Web sources changed: rebuilding the web app…',
  );
  // Through npm, so vite is found wherever the install placed it (it lives in the web workspace).
  const result = spawnSync(
    'npm',
    ['run', 'build', '--silent', '-w', '@kadai/web', '--', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
      cwd: root,
    },
  );
  if (result.status !== 0) {
    console.error('The web app failed to build.');
    process.exit(result.status ?? 1);
  }
}

// Run the TypeScript API in this process, so SIGTERM reaches its graceful shutdown directly.
await runTypeScript('apps/api/src/main.ts', { tracing: 'kadai-api' });
