// `npm run check`: type-check, lint, the layer rules, the format check and the commit subjects, in two
// lanes at once (the type-check is one lane, the rest the other): each tool uses about one core, so
// on two cores the check takes the longer lane's time instead of the sum. Each command prints a line
// when it ends, and its output when it fails; the check fails if any command fails.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

// Each tool keeps what it learnt about unchanged files under node_modules/.cache (a clean clone has
// none and checks everything): a second check after a small change takes seconds, not a minute.
// ESLint's cache is safe here because no rule reads types from other files.
const cache = path.join(root, 'node_modules/.cache/kadai-check');
const typecheck = [
  'packages/contracts',
  'packages/sandbox',
  'packages/storage',
  'apps/api',
  'apps/grader',
  'apps/web',
].map((project) => ({
  name: `tsc -p ${project}`,
  cmd: bin('tsc'),
  args: [
    '-p',
    project,
    '--incremental',
    '--tsBuildInfoFile',
    path.join(cache, `${project.replace('/', '-')}.tsbuildinfo`),
  ],
}));
const rest = [
  {
    name: 'eslint',
    cmd: bin('eslint'),
    args: [
      '--max-warnings=0',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      path.join(cache, 'eslint/'),
      '.',
    ],
  },
  {
    name: 'layers (dependency-cruiser)',
    cmd: bin('depcruise'),
    args: ['--config', '.dependency-cruiser.cjs', '--output-type', 'err-long', 'apps', 'packages', 'bench'],
  },
  {
    name: 'prettier --check',
    cmd: bin('prettier'),
    args: [
      '--check',
      '--log-level',
      'warn',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      path.join(cache, 'prettier'),
      '.',
    ],
  },
  { name: 'commit subjects', cmd: process.execPath, args: ['scripts/check-commits.mjs'] },
];

function run({ name, cmd, args }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      console.log(`${ok ? '✓' : '✗'} ${name} (${seconds} s)`);
      if (!ok) console.log(output.trimEnd().replace(/^/gm, '    '));
      resolve(ok);
    });
  });
}

async function lane(commands) {
  let ok = true;
  // A lane goes on after a failure, so one run reports every problem.
  for (const command of commands) ok = (await run(command)) && ok;
  return ok;
}

const results = await Promise.all([lane(typecheck), lane(rest)]);
process.exit(results.every(Boolean) ? 0 : 1);
