import { useEffect, useRef } from 'react';
import { useMarkAllRead } from './notifications.queries.ts';

/**
 * Marks the reader's notifications about this page (`link`, the app's path) as read once `shown` is
 * true: a student looking at a graded submission has read what the "graded" notification would tell
 * them. Once per link while the page is open; the bell takes the server's new count.
 */
export function useMarkPageRead(link: string, shown: boolean): void {
  const { mutate } = useMarkAllRead();
  const marked = useRef<string | null>(null);
  useEffect(() => {
    if (!shown || marked.current === link) return;
    marked.current = link;
    mutate({ link });
  }, [link, shown, mutate]);
}
