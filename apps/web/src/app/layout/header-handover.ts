import { useLayoutEffect, useRef, useState } from 'react';

/** The header controls a stand-in can hand over. */
export type HeaderControl = 'language' | 'colorScheme' | 'notifications' | 'user';

const CONTROL_ATTRIBUTE = 'data-header-control';

// What the reader did to the stand-ins before the real controls arrived (usually within a second).
const handover: { focused: HeaderControl | null; clicked: HeaderControl | null } = {
  focused: null,
  clicked: null,
};

/**
 * Props for a stand-in: its name for the hand-over and, for the button of a menu or a popover
 * (`popup`), a click to answer later.
 */
export function standInProps(control: HeaderControl, popup: 'menu' | 'dialog' | null) {
  return {
    [CONTROL_ATTRIBUTE]: control,
    ...(popup
      ? {
          'aria-haspopup': popup,
          'aria-expanded': false,
          onClick: () => {
            handover.clicked = control;
          },
        }
      : {}),
  };
}

/** Notes which stand-in inside `container` has the focus, just before the real controls replace them. */
export function noteFocusedStandIn(container: HTMLElement | null): void {
  const focused = container?.querySelector(`[${CONTROL_ATTRIBUTE}]:focus`);
  handover.focused = (focused?.getAttribute(CONTROL_ATTRIBUTE) as HeaderControl | null | undefined) ?? null;
}

/**
 * For the real control: a ref for its button, which takes the focus the stand-in had, and whether the
 * reader clicked the stand-in (its menu then opens at once). Read once, as the control mounts.
 */
export function useTakeOver(control: HeaderControl) {
  const ref = useRef<HTMLButtonElement>(null);
  const [openedByStandIn] = useState(() => handover.clicked === control);
  useLayoutEffect(() => {
    if (handover.clicked === control) handover.clicked = null;
    if (handover.focused !== control) return;
    handover.focused = null;
    ref.current?.focus();
  }, [control]);
  return { ref, openedByStandIn };
}
