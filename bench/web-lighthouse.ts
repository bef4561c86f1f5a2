// Lighthouse on one page of a running Kadai, as `bench:web` asks for it: Debian's Chromium, the desktop
// or the mobile preset (simulated throttling), a signed-in session placed in localStorage beforehand.
import { writeFileSync } from 'node:fs';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import * as chromeLauncher from 'chrome-launcher';
import type { Page } from 'puppeteer-core';

export type Preset = 'desktop' | 'mobile';

export interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Milliseconds (simulated). */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Bytes of JavaScript on the wire, all of the page's load. */
  jsBytes: number;
  /** Bytes of JavaScript requested before the largest contentful paint (the first screen's). */
  firstScreenJsBytes: number;
  /** The largest API answer on the wire, and its path. */
  largestApi: { bytes: number; path: string };
  /** Accessibility and best-practice audits that failed, by id. */
  failed: string[];
  /** Lighthouse's measure of this machine's speed during the run (higher is faster; ~1,000+ is a desktop). */
  benchmarkIndex: number;
  /** The factor the simulation multiplied the observed main-thread work by. */
  cpuSlowdown: number;
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
}

/** Runs `work` in a new tab of `chrome` (through puppeteer), then closes the tab and lets go of it. */
async function inNewTab<T>(
  chrome: chromeLauncher.LaunchedChrome,
  work: (page: Page) => Promise<T>,
): Promise<T> {
  const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.connect({ browserWSEndpoint: version.webSocketDebuggerUrl });
  try {
    const page = await browser.newPage();
    const result = await work(page);
    await page.close();
    return result;
  } finally {
    await browser.disconnect();
  }
}

/**
 * Stores `session` (the app's persisted `kadai-session` state, or null for signed out) for `origin`,
 * through a tab that opens a static file of the app, so no code or API answer is cached by it.
 */
export async function placeSession(
  chrome: chromeLauncher.LaunchedChrome,
  origin: string,
  session: Record<string, unknown> | null,
): Promise<void> {
  await inNewTab(chrome, async (page) => {
    await page.goto(`${origin}/favicon.svg`);
    const value = session === null ? null : JSON.stringify({ state: session, version: 1 });
    await page.evaluate(
      value === null
        ? `localStorage.removeItem('kadai-session')`
        : `localStorage.setItem('kadai-session', ${JSON.stringify(value)})`,
    );
  });
}

/**
 * The box's speed, on Lighthouse's scale: the median of three runs of its own `benchmarkIndex` (about a
 * second each) in a blank tab of `chrome`.
 */
export async function measureBenchmarkIndex(chrome: chromeLauncher.LaunchedChrome): Promise<number> {
  return inNewTab(chrome, async (page) => {
    const values: number[] = [];
    for (let i = 0; i < 3; i++) values.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    return values.sort((a, b) => a - b)[1]!;
  });
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/**
 * Runs Lighthouse with the preset's network and, when `cpuScale` is given, the preset's CPU slowdown
 * (desktop 1×, mobile 4×) times `cpuScale` (bench:web, "calibrated").
 */
export async function runLighthouse(
  chrome: chromeLauncher.LaunchedChrome,
  url: string,
  preset: Preset,
  saveAs?: string,
  cpuScale?: number,
): Promise<PageFigures> {
  const flags = { port: chrome.port, output: 'json' as const, logLevel: 'error' as const };
  const presetThrottling =
    preset === 'desktop' ? desktopConfig.settings?.throttling : throttling.mobileSlow4G;
  const scaled =
    cpuScale === undefined || !presetThrottling
      ? {}
      : {
          throttling: {
            ...presetThrottling,
            cpuSlowdownMultiplier: (presetThrottling.cpuSlowdownMultiplier ?? 1) * cpuScale,
          },
        };
  const config =
    preset === 'desktop'
      ? { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: CATEGORIES, ...scaled } }
      : { extends: 'lighthouse:default', settings: { onlyCategories: CATEGORIES, ...scaled } };
  // A trace now and then comes back without its navigation (NO_NAVSTART on a busy box), or the browser
  // stops answering in time (PROTOCOL_TIMEOUT, thrown rather than reported): run it again.
  for (let attempt = 1; ; attempt++) {
    let result: Awaited<ReturnType<typeof lighthouse>>;
    try {
      result = await lighthouse(url, flags, config);
    } catch (error) {
      if (attempt < 3 && isLighthouseRuntimeError(error)) {
        console.warn(`Lighthouse on ${url}: ${String(error)}; running it again.`);
        continue;
      }
      throw error;
    }
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (result.lhr.runtimeError && attempt < 3) continue;
    if (saveAs) writeFileSync(saveAs, JSON.stringify(result.lhr));
    return figuresOf(result.lhr);
  }
}

/** An error Lighthouse throws for a run that went wrong in the browser (its `lhrRuntimeError` flag). */
function isLighthouseRuntimeError(error: unknown): boolean {
  return error instanceof Error && 'lhrRuntimeError' in error && error.lhrRuntimeError === true;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
  networkRequestTime?: number;
  mimeType?: string;
}

function figuresOf(lhr: Result): PageFigures {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id];
  const numeric = (id: string) => audit(id)?.numericValue ?? Number.NaN;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const details = audit('network-requests')?.details;
  const requests = (details && 'items' in details ? details.items : []) as unknown as NetworkRequest[];
  // The observed (unthrottled) largest paint orders requests (both in ms from the navigation's start):
  // the scripts asked for before it are what the first screen needed.
  const metrics = audit('metrics')?.details;
  const observed = (metrics && 'items' in metrics ? metrics.items[0] : {}) as Record<string, number>;
  const firstScreenAt = observed.observedLargestContentfulPaint ?? Infinity;
  let jsBytes = 0;
  let firstScreenJsBytes = 0;
  let largestApi = { bytes: 0, path: '' };
  for (const request of requests) {
    const bytes = request.transferSize ?? 0;
    if (request.resourceType === 'Script') {
      jsBytes += bytes;
      if ((request.networkRequestTime ?? Infinity) <= firstScreenAt) firstScreenJsBytes += bytes;
    }
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/') && bytes > largestApi.bytes) largestApi = { bytes, path };
  }
  const failed: string[] = [];
  for (const category of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const result = audit(ref.id);
      if (ref.weight > 0 && result && result.score !== null && result.score < 1) failed.push(ref.id);
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsBytes,
    firstScreenJsBytes,
    largestApi,
    failed,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    cpuSlowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1,
  };
}
