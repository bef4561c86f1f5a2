import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3197);
/** A stand-in for Vimeo's API and player (apps/api/test/fake-vimeo.ts), for the video journeys. */
const vimeoPort = Number(process.env.E2E_VIMEO_PORT ?? 3198);
const vimeoUrl = `http://127.0.0.1:${vimeoPort}`;
/** A stand-in for Google's identity script, tokeninfo and userinfo (apps/api/test/fake-google.ts). */
const googlePort = Number(process.env.E2E_GOOGLE_PORT ?? 3199);
const googleUrl = `http://127.0.0.1:${googlePort}`;
/** A real SMTP server (apps/api/test/smtp-server.ts); the journeys read what arrived over HTTP. */
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3201);
const mailboxPort = Number(process.env.E2E_MAILBOX_PORT ?? 3202);
const mailboxUrl = `http://127.0.0.1:${mailboxPort}`;
const baseURL = `http://127.0.0.1:${port}`;
/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same Blink and V8 without the
 * browser's own UI), as Playwright's bundled browsers run headless tests: 36 % less CPU than the full
 * browser for the same journeys here. The full `chromium` when the shell is missing or asked for.
 */
const chromium =
  process.env.E2E_CHROMIUM ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
// A fresh embedded database for every run: the journeys sign in as the seeded demo accounts.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'kadai-e2e-'));

export default defineConfig({
  testDir: './e2e',
  // Two workers on two cores: one walks the accessibility checks (which only read) while the other
  // runs the journeys file by file; alone, one worker left half the box idle (docs/development.md).
  workers: Number(process.env.E2E_WORKERS ?? 2),
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
    // A failed test keeps its trace: every action with a DOM snapshot before and after. Without the
    // screencast (screenshots), which made Chromium spend 70 % more CPU on every test (docs/development.md).
    // Recording the snapshots costs about 11 % of the journeys' CPU even when every test passes, so
    // `npm test` turns it off (E2E_TRACE=off); a journey run on its own records, to be opened after a
    // failure with `npx playwright show-trace`.
    trace: {
      mode: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
      screenshots: false,
      snapshots: true,
      sources: true,
    },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
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
      command: `npx tsx apps/api/test/fake-google.ts ${googlePort}`,
      cwd: '../..',
      url: `${googleUrl}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx tsx apps/api/test/smtp-server.ts ${smtpPort} ${mailboxPort}`,
      cwd: '../..',
      url: `${mailboxUrl}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: 'node --max-semi-space-size=64 scripts/start.mjs',
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
        // The fake's client id (FAKE_GOOGLE_CLIENT_ID): the login page shows the Google button.
        GOOGLE_CLIENT_ID: 'fake-google-client.apps.googleusercontent.com',
        GOOGLE_SCRIPT_URL: `${googleUrl}/gsi/client`,
        GOOGLE_TOKENINFO_URL: `${googleUrl}/tokeninfo`,
        GOOGLE_USERINFO_URL: `${googleUrl}/v1/userinfo`,
        // E-mail goes to the test SMTP server, retried after 1 s (instead of 30 s) when it fails.
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtpPort),
        SMTP_RETRY_DELAY: '1',
      },
    },
  ],
});
