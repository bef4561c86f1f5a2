import { Group, Loader, Popover } from '@mantine/core';
import { Suspense, useId, useState, type Ref } from 'react';
import { lazyComponent, trackedImport } from '../../ui/lazyComponent.ts';
import { NotificationBellButton } from './NotificationBellButton.tsx';

// The list the bell opens loads with its first opening (or as the pointer comes near): the header's
// controls load after the first screen, and the list's code (its sentences, the relative times) is
// for the readers who open it.
const loadPanel = () => trackedImport(() => import('./NotificationPanel.tsx'));
const NotificationPanel = lazyComponent(() => loadPanel().then((m) => ({ default: m.NotificationPanel })));

function preload() {
  void loadPanel().catch(() => undefined);
}

/**
 * The header's bell with its popover: the newest notifications. The header hands it the button's ref
 * and whether its stand-in was clicked before it arrived (the popover then opens at once).
 */
export function NotificationBell({
  buttonRef,
  defaultOpened = false,
}: {
  buttonRef?: Ref<HTMLButtonElement>;
  defaultOpened?: boolean;
}) {
  const [opened, setOpened] = useState(defaultOpened);
  const titleId = useId();
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={380}
      shadow="md"
      trapFocus
      returnFocus
      // Inside the header's landmark, like its menus (axe: region); the header is fixed, so the bell
      // never scrolls away from its list.
      withinPortal={false}
      hideDetached={false}
      styles={{ dropdown: { padding: 0, maxWidth: 'calc(100vw - 16px)' } }}
    >
      <Popover.Target>
        <NotificationBellButton
          ref={buttonRef}
          onClick={() => setOpened((was) => !was)}
          onPointerEnter={preload}
          onFocus={preload}
        />
      </Popover.Target>
      <Popover.Dropdown aria-labelledby={titleId}>
        <Suspense
          fallback={
            <Group justify="center" p="lg">
              <Loader size="sm" />
            </Group>
          }
        >
          <NotificationPanel titleId={titleId} onNavigate={() => setOpened(false)} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
