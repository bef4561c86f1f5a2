import { useEffect, useState } from 'react';

const MINUTE = 60_000;

/** Moments before the deadline when the student is warned (each once): five minutes, then one. */
export const WARNINGS_MS = [5 * MINUTE, MINUTE] as const;

/** Milliseconds left until `deadline` (never negative). */
export function remainingMs(deadline: string, now: number): number {
  return Math.max(0, Date.parse(deadline) - now);
}

/** "1:05:09" or "04:59": what the countdown shows. */
export function formatRemaining(ms: number): string {
  const totalSeconds = Math.ceil(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/**
 * The warning due at this moment: the smallest threshold already reached, if it is smaller than the last
 * one given (so each is given once, and a student who starts with four minutes left gets the first).
 */
export function dueWarning(remaining: number, lastWarned: number | null): number | null {
  const reached = WARNINGS_MS.filter((threshold) => remaining <= threshold);
  const smallest = reached.length > 0 ? Math.min(...reached) : null;
  if (smallest === null || remaining === 0) return null;
  return lastWarned === null || smallest < lastWarned ? smallest : null;
}

/** The time now, updated every second while `active`. */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
