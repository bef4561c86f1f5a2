/*
 * What the player actually played (docs/videos.md, "Honest statistics"). Time updates while playing extend
 * the open interval when they follow on from the last one (at most 2× real time, plus a little slack);
 * every other move (a seek, a jump) closes it and opens a new one. Pausing closes it. `take()` hands the
 * intervals over for a report and keeps the open one going from where it was cut.
 */

export type Interval = [number, number];

const MAX_RATE = 2;
const SLACK_SECONDS = 1.5;

export class WatchTracker {
  private done: Interval[] = [];
  private open: { start: number; last: number; at: number } | null = null;
  private lastPosition = 0;

  /** A time update from the player, `now` in milliseconds. */
  time(seconds: number, playing: boolean, now: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    this.lastPosition = seconds;
    if (!playing) {
      this.close();
      return;
    }
    const open = this.open;
    if (open) {
      const elapsed = Math.max(0, (now - open.at) / 1000);
      const step = seconds - open.last;
      if (step >= 0 && step <= elapsed * MAX_RATE + SLACK_SECONDS) {
        open.last = seconds;
        open.at = now;
        return;
      }
      this.close();
    }
    this.open = { start: seconds, last: seconds, at: now };
  }

  /** Paused, ended or sought: the open interval ends at the last time seen. */
  stop(): void {
    this.close();
  }

  get position(): number {
    return this.lastPosition;
  }

  /** The intervals played since the last call. */
  take(): Interval[] {
    const out = this.done;
    this.done = [];
    const open = this.open;
    if (open && open.last > open.start) {
      out.push([open.start, open.last]);
      open.start = open.last;
    }
    return out;
  }

  private close(): void {
    const open = this.open;
    if (open && open.last > open.start) this.done.push([open.start, open.last]);
    this.open = null;
  }
}
