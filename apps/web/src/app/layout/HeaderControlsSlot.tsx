import { useCallback, useEffect, useRef, useState } from 'react';
import { NotificationBellButton } from '../../features/notifications/NotificationBellButton.tsx';
import { trackedImport } from '../../ui/lazyComponent.ts';
import { ColorSchemeButton, LanguageButton, UserButton } from './HeaderButtons.tsx';
import type { HeaderControls } from './HeaderControls.tsx';
import { noteFocusedStandIn, standInProps } from './header-handover.ts';
import classes from './Header.module.css';

// The header's language menu, colour-scheme tooltip, notifications' popover and user menu
// (HeaderControls.tsx: Mantine's Menu, Popover and Tooltip with @floating-ui, ~35 KB on the wire) load
// at once when the reader points at, touches or tabs to one of them, and otherwise a few seconds after
// the page has loaded, when the browser is idle: the first screen does not wait for them, nor share the
// network with them. Until then their buttons stand in for them (the same faces; HeaderButtons.tsx and
// the bell's, which counts the unread notifications from the first screen), and hand over the focus
// and a click (header-handover.ts).
// Not React.lazy with Suspense: the stand-ins must stay the same elements until the real controls are
// there (a click whose mousedown and mouseup land on different elements is lost).
type Controls = typeof HeaderControls;
let loading: Promise<Controls> | null = null;

function loadControls(): Promise<Controls> {
  loading ??= trackedImport(() => import('./HeaderControls.tsx')).then(
    (module) => module.HeaderControls,
    (error: unknown) => {
      loading = null; // offline, or a deployment replaced the chunk: the next wish tries again
      throw error;
    },
  );
  return loading;
}

/**
 * How long after the page's load the controls load unasked: after the page's own data and pictures
 * (its largest paint came 0.6–0.9 s after the start on this box, unthrottled; on a phone, later).
 */
const AFTER_LOAD_MS = 3000;
/** How long then to wait at most for the browser to be idle. */
const IDLE_TIMEOUT_MS = 2000;

/** Calls `start` a while after the page has loaded, when the browser has a moment. */
function whenLoadedAndIdle(start: () => void): () => void {
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onLoad = () => {
    timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') {
        idle = requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS });
      } else start();
    }, AFTER_LOAD_MS);
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    window.removeEventListener('load', onLoad);
    if (idle !== undefined) cancelIdleCallback(idle);
    if (timer !== undefined) clearTimeout(timer);
  };
}

function StandIns({ isAuthenticated }: { isAuthenticated: boolean }) {
  return (
    <>
      <LanguageButton {...standInProps('language', 'menu')} />
      <ColorSchemeButton {...standInProps('colorScheme', null)} />
      {isAuthenticated ? <NotificationBellButton {...standInProps('notifications', 'dialog')} /> : null}
      {isAuthenticated ? <UserButton {...standInProps('user', 'menu')} /> : null}
    </>
  );
}

/**
 * The stand-ins, replaced by the real controls once these have loaded — but never while a pointer or
 * a key is down on them: the press and its release would land on different elements, and the click
 * (a key's, on its release) would be lost. Whatever the reader did to a stand-in (focus, a click on a
 * menu's button) is handed over.
 */
export function HeaderControlsSlot({ isAuthenticated }: { isAuthenticated: boolean }) {
  const [RealControls, setRealControls] = useState<Controls | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const pressed = useRef(false);
  const arrived = useRef<Controls | null>(null);

  const swap = useCallback(() => {
    const controls = arrived.current;
    if (controls === null || pressed.current) return;
    noteFocusedStandIn(group.current);
    setRealControls(() => controls);
  }, []);
  const want = useCallback(() => {
    loadControls().then(
      (controls) => {
        arrived.current = controls;
        swap();
      },
      () => undefined,
    );
  }, [swap]);
  const press = useCallback(() => {
    pressed.current = true;
  }, []);
  // After the release's click has been handled.
  const release = useCallback(() => {
    pressed.current = false;
    setTimeout(swap);
  }, [swap]);
  useEffect(() => (RealControls ? undefined : whenLoadedAndIdle(want)), [RealControls, want]);

  if (RealControls) {
    return (
      <div className={classes.controls}>
        <RealControls isAuthenticated={isAuthenticated} />
      </div>
    );
  }
  return (
    <div
      ref={group}
      className={classes.controls}
      onPointerEnter={want}
      onTouchStart={want}
      onFocus={want}
      onPointerDown={press}
      onKeyDown={press}
      onPointerUp={release}
      onPointerCancel={release}
      onKeyUp={release}
      onBlur={release}
    >
      <StandIns isAuthenticated={isAuthenticated} />
    </div>
  );
}
