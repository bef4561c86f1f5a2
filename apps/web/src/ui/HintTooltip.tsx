import { Suspense, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';
import { lazyComponent } from './lazyComponent.ts';

// Mantine's Tooltip brings @floating-ui (~15 KB brotli) with it. A hint that only some readers see
// (a badge shown for a few students) would otherwise put that into the first screen of every page it
// may appear on: the assignment and the quiz pages carried it for a badge that most students never get.
const Tooltip = lazyComponent(() => import('./tooltip.ts'));

/**
 * A Mantine Tooltip whose code loads when the first one is drawn. Until it has arrived the child is
 * drawn alone, without the hint, in the same place and size.
 */
export function HintTooltip(props: TooltipProps & { children: ReactElement }) {
  return (
    <Suspense fallback={props.children}>
      <Tooltip {...props} />
    </Suspense>
  );
}
