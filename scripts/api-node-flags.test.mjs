// Every way the API is started passes the V8 flags it is measured with (docs/performance.md, "The API's
// young generation"): `npm start`, the systemd unit of docs/deploy.md, the browser journeys' server and
// the benches (bench/processes.ts holds the flags).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS } from '../bench/processes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');

describe('the API’s node flags', () => {
  it('are the same wherever the API is started', () => {
    expect(API_NODE_FLAGS).toMatch(/^--max-semi-space-size=\d+$/u);
    const startCommand = `node ${API_NODE_FLAGS} scripts/start.mjs`;
    expect(JSON.parse(read('package.json')).scripts.start).toBe(startCommand);
    expect(read('apps/web/playwright.config.ts')).toContain(`command: '${startCommand}'`);
    expect(read('docs/deploy.md')).toContain(`ExecStart=/usr/bin/${startCommand}\n`);
    expect(read('README.md')).toContain(`\`${startCommand}\``);
    // No other way to start it is documented without them.
    for (const file of ['README.md', 'docs/deploy.md']) {
      expect(read(file), file).not.toMatch(/node scripts\/start\.mjs/u);
    }
  });
});
