import { useCallback, useState } from 'react';

const PREFIX = 'kadai-draft-';
/** Drafts are kept per assignment and course, on this device only. */
const MAX_DRAFT_CHARACTERS = 200_000;

function read(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else if (value.length <= MAX_DRAFT_CHARACTERS) localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage full or disabled: the draft lives only as long as the page.
  }
}

/**
 * Code typed in the editor survives a reload: it is kept in this browser until reset. Starts from the
 * saved draft, else from `initial` (the starter code).
 */
export function useDraft(key: string, initial: string): [string, (value: string) => void, () => void] {
  const [value, setValue] = useState(() => read(key) ?? initial);
  const update = useCallback(
    (next: string) => {
      setValue(next);
      write(key, next === initial ? null : next);
    },
    [key, initial],
  );
  const clear = useCallback(() => write(key, null), [key]);
  return [value, update, clear];
}
