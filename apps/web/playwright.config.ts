import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3197);
/** A stand-in for Vimeo's API and player (apps/api/test/fake-vimeo.ts), for the video journeys. */
const vimeoPort = Number(process.env.E2E_VIMEO_PORT ?? 3198);
const vimeoUrl = `http://127.0.0.1:${vimeoPort}`;
const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database for every run: the journeys sign in as the seeded demo accounts.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'kadai-e2e-'));

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  outputDir: '../../test-results',
  use: {
    baseURL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    // Signs in once per role and saves the browser storage for the journeys that start signed in.
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'chromium', testIgnore: /.*\.setup\.ts/, dependencies: ['setup'] },
  ],
  webServer: [
    {
      command: `npx tsx apps/api/test/fake-vimeo.ts ${vimeoPort}`,
      cwd: '../..',
      url: `${vimeoUrl}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: 'node scripts/start.mjs',
      cwd: '../..',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SKIP_WEB_BUILD: process.env.SKIP_WEB_BUILD ?? 'false',
        PUBLIC_URL: baseURL,
        VIMEO_ACCESS_TOKEN: 'fake-vimeo-token',
        VIMEO_API_URL: vimeoUrl,
        VIMEO_PLAYER_URL: `${vimeoUrl}/video/`,
      },
    },
  ],
});
