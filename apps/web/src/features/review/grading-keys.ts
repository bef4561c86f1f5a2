import { useEffect, useRef } from 'react';

/** Whether a key pressed here is typing: text fields, selects, editable content, an open dialog. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return true;
  return false;
}

/**
 * Single-key shortcuts of the grading page (digits, j, k), heard on the whole document but never
 * while typing or with a modifier held. The handler is read through a ref: no re-subscribing per render.
 */
export function useGradingKeys(handler: (key: string) => boolean) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      if (latest.current(event.key)) event.preventDefault();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
