// `npm run bench:web`: the first load as Lighthouse 12 sees it. Builds the web app (BENCH_WEB_BUILD=false
// skips it), starts `npm start`'s server on a fresh embedded database with the demo courses, signs in as
// the demo student and editor, and runs Lighthouse with Debian's Chromium, desktop and mobile presets
// (simulated throttling), on: login, course list, course home, assignment detail, forum list, quiz
// taking (student), the assessment table (editor), and, in a course of BENCH_WEB_STUDENTS (300) students
// and BENCH_WEB_ITEMS (40) assignments and quizzes seeded beforehand (bench/web-seed.ts), its gradebook
// and its home (editor). Prints each page's scores, FCP, LCP, TBT, CLS, the
// JavaScript on the wire (all of it, and what was asked for before the largest paint: the first
// screen), the largest API answer and the failed accessibility/best-practice audits.
// Targets (issue 22): performance ≥ 95 desktop, ≥ 85 mobile; accessibility 100; best practices ≥ 96;
// CLS < 0.05; first-screen JavaScript ≤ 150 KB on the wire. Exits 1 when one is missed.
// BENCH_WEB_PAGES=login,forum picks pages (BENCH_WEB_PAGES="gradebook,editor home" the large course's); BENCH_WEB_PRESETS=desktop picks presets; BENCH_WEB_RUNS=N
// takes the median of N runs per page (default 1); BENCH_WEB_SAVE=dir keeps each report's JSON there.
// The simulated CPU is calibrated to this box at its quiet speed (BENCH_WEB_CPU=lighthouse: Lighthouse's
// constant factors instead): before each run the box's benchmarkIndex is measured, and the preset's
// slowdown (mobile 4×, desktop 1×) is scaled by it over REFERENCE_BENCHMARK_INDEX, so the simulated
// phone is the same whatever else shares the box (docs/first-load.md, "A phone that does not depend on
// the hour"). Lighthouse's docs ask for that calibration when a box is not the desktop it assumes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  launchChromium,
  measureBenchmarkIndex,
  placeSession,
  runLighthouse,
  type PageFigures,
  type Preset,
} from './web-lighthouse.ts';
import { boxSpeedLine, helloCeiling } from './box-speed.ts';
import { API_NODE_FLAGS, stopProcess } from './processes.ts';
import { prepareWebBenchDatabase } from './web-seed.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 3391);
const origin = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'demo-password-2026';
/** A folder to keep each Lighthouse report (JSON) in. */
const SAVE_DIR = process.env.BENCH_WEB_SAVE;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 1);
const PRESETS = (process.env.BENCH_WEB_PRESETS ?? 'desktop,mobile').split(',') as Preset[];
/**
 * The box's benchmarkIndex on a quiet hour (3,400–4,000 on the quiet nights of 2026-11-27 and 28; "about
 * 3,600" the usual): the speed at which Lighthouse's own factors give the simulated phone the verdict
 * is about.
 */
const REFERENCE_BENCHMARK_INDEX = 3600;
const CALIBRATED = (process.env.BENCH_WEB_CPU ?? 'calibrated') !== 'lighthouse';
const TARGET = {
  performance: { desktop: 95, mobile: 85 },
  accessibility: 100,
  bestPractices: 96,
  cls: 0.05,
  firstScreenJsKb: 150,
};

interface Who {
  token: string;
  session: Record<string, unknown>;
}

async function api<T>(method: string, apiPath: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}/api${apiPath}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function signIn(email: string): Promise<Who> {
  const tokens = await api<{ access: string; refresh: string }>('POST', '/Auth/Email/Login/', null, {
    email,
    password: PASSWORD,
  });
  const info = await api<{
    id: number;
    email: string;
    roles: string[];
    is_staff: boolean;
    editor_courses: number[];
  }>('GET', '/Auth/UserInfo/', tokens.access);
  return {
    token: tokens.access,
    session: {
      authToken: tokens.access,
      refreshToken: tokens.refresh,
      emailAddress: info.email,
      userId: info.id,
      is_staff: info.is_staff,
      roles: info.roles,
      editorCourses: info.editor_courses,
      isDarkMode: false,
      displayLang: 'ja',
      forumActiveTab: 'announcement',
      callback: null,
    },
  };
}

async function waitForHealth(): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not become healthy in 120 s');
}

interface BenchPage {
  name: string;
  path: string;
  who: 'nobody' | 'student' | 'editor';
}

async function demoPages(student: Who, largeCourseId: number): Promise<BenchPage[]> {
  const courses = await api<{ results: Array<{ id: number }> }>('GET', '/Course/', student.token);
  const courseId = courses.results[0]!.id;
  const assignments = await api<{ results: Array<{ id: number; accepts_submissions: boolean }> }>(
    'GET',
    `/Assignment/CourseSpecific/?course_id=${courseId}`,
    student.token,
  );
  const quizzes = await api<{
    results: Array<{ quiz_id: number; title: string; quiz_course: { id: number }; state?: string }>;
  }>('GET', `/Quiz/CourseSpecific/?course_id=${courseId}`, student.token);
  const quiz = quizzes.results.find((q) => q.title === 'Python basics check') ?? quizzes.results[0]!;
  // One that takes submissions: the page a student opens to work on it, with the code editor.
  const assignment = assignments.results.find((a) => a.accepts_submissions) ?? assignments.results[0]!;
  const course = `/course/${courseId}`;
  return [
    { name: 'login', path: '/login', who: 'nobody' },
    { name: 'course list', path: '/course', who: 'student' },
    { name: 'course home', path: course, who: 'student' },
    { name: 'assignment', path: `${course}/assignment/${assignment.id}`, who: 'student' },
    { name: 'forum', path: `${course}/forum`, who: 'student' },
    {
      name: 'quiz',
      path: `${course}/quizzes/${quiz.quiz_id}/quiz-courses/${quiz.quiz_course.id}`,
      who: 'student',
    },
    { name: 'assessment', path: `${course}/assessment`, who: 'editor' },
    { name: 'gradebook', path: `/course/${largeCourseId}/gradebook`, who: 'editor' },
    { name: 'editor home', path: `/course/${largeCourseId}`, who: 'editor' },
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The run whose performance score is the median of the runs (so its figures belong together). */
function medianRun(runs: PageFigures[]): PageFigures {
  const target = median(runs.map((r) => r.performance));
  return runs.find((r) => r.performance === target)!;
}

function misses(figures: PageFigures, preset: Preset): string[] {
  const out: string[] = [];
  if (figures.performance < TARGET.performance[preset]) out.push(`performance ${figures.performance}`);
  if (figures.accessibility < TARGET.accessibility) out.push(`accessibility ${figures.accessibility}`);
  if (figures.bestPractices < TARGET.bestPractices) out.push(`best practices ${figures.bestPractices}`);
  if (!(figures.cls < TARGET.cls)) out.push(`CLS ${figures.cls.toFixed(3)}`);
  if (figures.firstScreenJsBytes / 1024 > TARGET.firstScreenJsKb)
    out.push(`first-screen JS ${(figures.firstScreenJsBytes / 1024).toFixed(0)} KB`);
  return out;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

async function main(): Promise<void> {
  if (process.env.BENCH_WEB_BUILD !== 'false') {
    console.log('Building the web app…');
    const built = spawnSync(
      'npm',
      ['run', 'build', '--silent', '-w', '@kadai/web', '--', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (built.status !== 0) throw new Error('the web build failed');
  }
  // The box's speed before and after, as the other benches print it (docs/performance.md).
  const boxBefore = boxSpeedLine('before', await helloCeiling());
  console.log(boxBefore);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kadai-bench-web-'));
  const large = await prepareWebBenchDatabase(dataDir);
  console.log(
    `Seeded the large course: ${large.assignments} assignments, ${large.quizzes} quizzes, ` +
      `${large.submissions} submissions, ${large.quizSubmissions} quiz answers (${large.seconds.toFixed(1)} s).`,
  );
  const server = spawn('node', [API_NODE_FLAGS, path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: 'true',
      INSTALL_SYSTEM_PACKAGES: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const chrome = await launchChromium();
  let failures = 0;
  try {
    await waitForHealth();
    const who = {
      nobody: null,
      student: await signIn('student1@example.com'),
      editor: await signIn('editor@example.com'),
    };
    const wanted = process.env.BENCH_WEB_PAGES?.split(',').map((s) => s.trim());
    const pages = (await demoPages(who.student, large.courseId)).filter(
      (p) => !wanted || wanted.includes(p.name),
    );
    const rows: string[] = [];
    const failedAudits = new Map<string, Set<string>>();
    for (const preset of PRESETS) {
      for (const page of pages) {
        const person = who[page.who];
        await placeSession(chrome, origin, person ? person.session : null);
        const runs: PageFigures[] = [];
        for (let run = 0; run < RUNS; run++) {
          const saveAs =
            SAVE_DIR && path.join(SAVE_DIR, `${preset}-${page.name.replace(/ /g, '-')}-${run}.json`);
          const cpuScale = CALIBRATED
            ? (await measureBenchmarkIndex(chrome)) / REFERENCE_BENCHMARK_INDEX
            : undefined;
          runs.push(await runLighthouse(chrome, origin + page.path, preset, saveAs, cpuScale));
        }
        const f = medianRun(runs);
        const missed = misses(f, preset);
        if (missed.length > 0) failures++;
        for (const id of f.failed) {
          if (!failedAudits.has(id)) failedAudits.set(id, new Set());
          failedAudits.get(id)!.add(`${page.name} (${preset})`);
        }
        const row = [
          preset.padEnd(7),
          page.name.padEnd(12),
          String(f.performance).padStart(4),
          String(f.accessibility).padStart(4),
          String(f.bestPractices).padStart(4),
          ms(f.fcp).padStart(8),
          ms(f.lcp).padStart(8),
          ms(f.tbt).padStart(7),
          f.cls.toFixed(3).padStart(6),
          kb(f.jsBytes).padStart(7),
          kb(f.firstScreenJsBytes).padStart(7),
          `${kb(f.largestApi.bytes)} ${f.largestApi.path}`.padEnd(40),
          String(Math.round(f.benchmarkIndex)).padStart(5),
          `${f.cpuSlowdown.toFixed(2)}×`.padStart(6),
          missed.length === 0 ? 'ok' : `MISS: ${missed.join(', ')}`,
        ].join(' ');
        rows.push(row);
        console.log(row);
      }
    }
    console.log(
      '\npreset  page         perf a11y  bp      FCP      LCP     TBT    CLS  JS all JS 1st largest API answer                      box    CPU',
    );
    for (const row of rows) console.log(row);
    for (const [id, where] of failedAudits) console.log(`failed audit ${id}: ${[...where].join(', ')}`);
    console.log(
      `\nTargets: performance ≥ ${TARGET.performance.desktop} desktop, ≥ ${TARGET.performance.mobile} mobile; ` +
        `accessibility ${TARGET.accessibility}; best practices ≥ ${TARGET.bestPractices}; CLS < ${TARGET.cls}; ` +
        `first-screen JS ≤ ${TARGET.firstScreenJsKb} KB. ${failures === 0 ? 'All met.' : `${failures} page runs miss.`}`,
    );
    console.log(
      CALIBRATED
        ? `CPU: the preset's slowdown × the box's benchmarkIndex before the run ÷ ${REFERENCE_BENCHMARK_INDEX} ` +
            '(the box quiet); BENCH_WEB_CPU=lighthouse for Lighthouse’s own factors.'
        : 'CPU: Lighthouse’s own factors (mobile 4×, desktop 1×), whatever the box’s speed.',
    );
  } finally {
    chrome.kill();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(boxBefore);
  console.log(boxSpeedLine('after', await helloCeiling()));
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
