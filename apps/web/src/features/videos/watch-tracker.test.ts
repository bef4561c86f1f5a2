import { describe, expect, it } from 'vitest';
import { WatchTracker } from './watch-tracker.ts';

/** Plays from `from` to `to` in steps of 0.25 s at real speed, starting at `start` ms. */
function play(tracker: WatchTracker, from: number, to: number, start: number, rate = 1): number {
  let now = start;
  for (let t = from; t <= to + 1e-9; t += 0.25 * rate) {
    tracker.time(Math.round(t * 100) / 100, true, now);
    now += 250;
  }
  return now;
}

describe('WatchTracker', () => {
  it('records continuous playing as one interval', () => {
    const tracker = new WatchTracker();
    play(tracker, 0, 10, 0);
    expect(tracker.take()).toEqual([[0, 10]]);
    expect(tracker.position).toBe(10);
  });

  it('splits at a seek: the skipped part is not played', () => {
    const tracker = new WatchTracker();
    const now = play(tracker, 0, 5, 0);
    play(tracker, 50, 55, now);
    expect(tracker.take()).toEqual([
      [0, 5],
      [50, 55],
    ]);
  });

  it('accepts up to double speed, not a jump forward', () => {
    const tracker = new WatchTracker();
    play(tracker, 0, 10, 0, 2);
    expect(tracker.take()).toEqual([[0, 10]]);
    tracker.time(10, true, 10_000);
    tracker.time(20, true, 11_000); // 10 s of video in 1 s: a seek
    tracker.time(20.5, true, 11_250);
    expect(tracker.take()).toEqual([[20, 20.5]]);
  });

  it('closes the interval on pause and on a backwards seek', () => {
    const tracker = new WatchTracker();
    let now = play(tracker, 0, 4, 0);
    tracker.stop();
    now = play(tracker, 2, 3, now + 5000);
    expect(tracker.take()).toEqual([
      [0, 4],
      [2, 3],
    ]);
    tracker.time(3.25, false, now);
    expect(tracker.take()).toEqual([]);
  });

  it('keeps an open interval going across reports', () => {
    const tracker = new WatchTracker();
    const now = play(tracker, 0, 5, 0);
    expect(tracker.take()).toEqual([[0, 5]]);
    play(tracker, 5.25, 8, now);
    expect(tracker.take()).toEqual([[5, 8]]);
    expect(tracker.take()).toEqual([]);
  });

  it('ignores times that are not positions', () => {
    const tracker = new WatchTracker();
    tracker.time(Number.NaN, true, 0);
    tracker.time(-1, true, 0);
    expect(tracker.take()).toEqual([]);
  });
});
