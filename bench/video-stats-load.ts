// The write load of bench:video-stats (bench/video-stats.bench.ts): the server's announcement, the
// editor's warm-up and the students' open-loop reports at the start of a lecture.
import { boxTicks, cpuBetween, snapshotCpu } from './cpu.ts';
import { send, type Answer } from './http-client.ts';

/** Every student reports the last 10 s of playback every 10 s, as the players do. */
export const REPORT_EVERY_SECONDS = 10;

export interface Seeded {
  students: number;
  videos: number;
  statRows: number;
  shortestVideo: number;
  longestVideo: number;
  seconds: number;
}

export interface Ready {
  port: number;
  courseId: number;
  lectureVideoId: number;
  videoIds: number[];
  tokens: string[];
  editorToken: string;
  seeded: Seeded;
}

export function isReady(value: unknown): value is Ready {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ready' in value &&
    'port' in value &&
    'tokens' in value &&
    Array.isArray(value.tokens) &&
    'editorToken' in value
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface WriteFigures {
  latencies: number[];
  /** How late each report fired after its due time: the load generator's own delay. */
  lateness: number[];
  created: number;
  errors: string[];
  wallSeconds: number;
  /** The second of the run (from 0) in which each answered write was sent, in `latencies` order. */
  sentSecond: number[];
  /** Share of the box's CPU (both cores) busy in each second of the run, whoever used it. */
  boxBusy: number[];
  /** Students whose stored total is not 10 s × their reports (lost or refused seconds). */
  wrongTotals: number;
  cpuPerWrite: ReturnType<typeof cpuBetween>;
}

interface ReportAnswer {
  watched_seconds: number;
}

const isReportAnswer = (value: unknown): value is ReportAnswer =>
  typeof value === 'object' && value !== null && 'watched_seconds' in value;

/**
 * The editor plays every video twice at once (a first report, then a further one), so the pool has
 * opened its connections and both paths (insert, update) ran before the clock starts; then once more,
 * one report at a time: the cost of a write with no other request in flight (returned, in ms). The
 * editor is not a student: the table does not show these rows.
 */
export async function warmUp(ready: Ready): Promise<number[]> {
  const report = (video: number, from: number) =>
    send(ready.port, 'POST', '/api/video-stats/', ready.editorToken, {
      video,
      intervals: [[from, from + REPORT_EVERY_SECONDS]],
      position: from + REPORT_EVERY_SECONDS,
    });
  const answers: Answer[] = [];
  for (const from of [0, 10]) {
    answers.push(...(await Promise.all(ready.videoIds.map((video) => report(video, from)))));
  }
  const alone: number[] = [];
  for (const video of ready.videoIds) {
    const answer = await report(video, 20);
    answers.push(answer);
    alone.push(answer.ms);
  }
  const bad = answers.find((a) => a.status >= 300);
  if (bad) throw new Error(`warm-up report: ${bad.status} ${bad.body.slice(0, 300)}`);
  return alone;
}

/** `seconds` of reports by every student of `ready`, each on its own timer (an open loop). */
export async function writeLoad(ready: Ready, apiRoot: number, seconds: number): Promise<WriteFigures> {
  const latencies: number[] = [];
  const lateness: number[] = [];
  const errors: string[] = [];
  let created = 0;
  const totals = new Array<number>(ready.tokens.length).fill(0);
  const expected = new Array<number>(ready.tokens.length).fill(0);
  const period = REPORT_EVERY_SECONDS * 1000;
  const sentSecond: number[] = [];
  const boxBusy: number[] = [];
  const before = await snapshotCpu(apiRoot);
  const start = performance.now();
  let ticks = boxTicks();
  const sampler = setInterval(() => {
    const now = boxTicks();
    boxBusy.push((now.busy - ticks.busy) / Math.max(1, now.all - ticks.all));
    ticks = now;
  }, 1000);
  const reports: Promise<void>[] = [];
  for (const [i, token] of ready.tokens.entries()) {
    const offset = Math.random() * period;
    for (let k = 0; offset + k * period < seconds * 1000; k++) {
      const due = start + offset + k * period;
      const from = k * REPORT_EVERY_SECONDS;
      expected[i] = from + REPORT_EVERY_SECONDS;
      reports.push(
        sleep(due - performance.now()).then(async () => {
          const sentAt = performance.now();
          lateness.push(sentAt - due);
          const answer = await send(ready.port, 'POST', '/api/video-stats/', token, {
            video: ready.lectureVideoId,
            intervals: [[from, from + REPORT_EVERY_SECONDS]],
            position: from + REPORT_EVERY_SECONDS,
          }).catch((error: unknown): Answer => ({ status: 0, body: String(error), ms: Number.NaN }));
          if (answer.status < 200 || answer.status >= 300) {
            errors.push(`${answer.status} ${answer.body.slice(0, 200)}`);
            return;
          }
          latencies.push(answer.ms);
          sentSecond.push(Math.floor((sentAt - start) / 1000));
          if (answer.status === 201) created += 1;
          const parsed: unknown = JSON.parse(answer.body);
          if (isReportAnswer(parsed)) totals[i] = Math.max(totals[i]!, parsed.watched_seconds);
        }),
      );
    }
  }
  await Promise.all(reports);
  clearInterval(sampler);
  const wallSeconds = (performance.now() - start) / 1000;
  const used = cpuBetween(before, await snapshotCpu(apiRoot));
  const n = Math.max(1, latencies.length + errors.length);
  return {
    latencies,
    lateness,
    created,
    errors,
    wallSeconds,
    sentSecond,
    boxBusy,
    wrongTotals: totals.filter((t, i) => Math.abs(t - expected[i]!) > 0.05).length,
    cpuPerWrite: {
      api: used.api / n,
      postgres: used.postgres / n,
      bench: used.bench / n,
      box: used.box / n,
    },
  };
}

/** Seconds at which the box was this busy or more count as saturated (by whoever). */
export const SATURATED = 0.9;

/**
 * The writes sent in seconds when the box had CPU to spare: on a shared two-core box, other work that
 * saturates it for a few seconds queues every request of those seconds, whatever the API does.
 */
export function unsaturated(w: WriteFigures): { seconds: number; saturated: number; latencies: number[] } {
  const spare = (second: number) => (w.boxBusy[second] ?? 1) < SATURATED;
  return {
    seconds: w.boxBusy.length,
    saturated: w.boxBusy.filter((busy) => busy >= SATURATED).length,
    latencies: w.latencies.filter((_, i) => spare(w.sentSecond[i]!)),
  };
}
