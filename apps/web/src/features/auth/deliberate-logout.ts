import { useEffect } from 'react';

/**
 * Set by a deliberate logout: the page being left is not an "intended route" to come back to, so the
 * guard that sees the session end there (app/guards.tsx) must not remember it.
 */
let isLeavingOnPurpose = false;

export function leaveWithoutRemembering(): void {
  isLeavingOnPurpose = true;
}

/** The login page is reached: a logout from a public page leaves nothing for a later guard to skip. */
export function useArrivedAtLogin(): void {
  useEffect(() => {
    isLeavingOnPurpose = false;
  }, []);
}

/** Whether the session just ended by a deliberate logout; asking forgets it (the guard asks once). */
export function takeLeavingOnPurpose(): boolean {
  const was = isLeavingOnPurpose;
  isLeavingOnPurpose = false;
  return was;
}
