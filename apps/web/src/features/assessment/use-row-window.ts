import { useEffect, useRef, useState, type RefObject } from 'react';

/** Rows drawn at first, and added each time the end of those drawn comes near the scroller's view. */
export const FIRST_ROWS = 20;
export const MORE_ROWS = 25;
/** How far below the scroller's view the end of the drawn rows starts the next batch. */
const AHEAD_PX = 600;

/**
 * How many of `total` rows a scrolling table draws: the first FIRST_ROWS, then MORE_ROWS more whenever
 * the sentinel (an element after the table, inside the scroller) comes within AHEAD_PX of the view — as
 * the rows scroll into view, by wheel, keyboard or focus alike. A table of 300 students × 40 items drew
 * 12,000 cells before its first paint (Lighthouse desktop 70, issue 36); sorting and filtering now
 * redraw a screenful, not the whole book. A new `resetKey` (another sort, filter or search) starts
 * again at the top; new data under the same key (a refetch after an extension) keeps the place.
 * Without IntersectionObserver every row is drawn.
 */
export function useRowWindow(
  total: number,
  resetKey: string,
): {
  shown: number;
  scrollerRef: RefObject<HTMLDivElement | null>;
  sentinelRef: RefObject<HTMLDivElement | null>;
} {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const canObserve = typeof IntersectionObserver !== 'undefined';
  const [batch, setBatch] = useState({ key: resetKey, count: FIRST_ROWS });
  // Adjusted while rendering (not in an effect), so a new sort never draws the old window first.
  if (batch.key !== resetKey) setBatch({ key: resetKey, count: FIRST_ROWS });
  const count = batch.key === resetKey ? batch.count : FIRST_ROWS;
  const shown = canObserve ? Math.min(total, count) : total;

  useEffect(() => {
    scrollerRef.current?.scrollTo?.({ top: 0 });
  }, [resetKey]);

  useEffect(() => {
    const root = scrollerRef.current;
    const sentinel = sentinelRef.current;
    if (!canObserve || !root || !sentinel || shown >= total) return;
    // Observed anew after each batch: observe() reports the current state at once, so a view still
    // short of rows asks for the next batch without waiting for a scroll.
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setBatch((current) =>
          current.key === resetKey ? { key: resetKey, count: current.count + MORE_ROWS } : current,
        );
      },
      { root, rootMargin: `0px 0px ${AHEAD_PX}px 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [canObserve, shown, total, resetKey]);

  return { shown, scrollerRef, sentinelRef };
}
