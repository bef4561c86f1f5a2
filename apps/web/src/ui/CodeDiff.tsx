import { Skeleton } from '@mantine/core';
import { Suspense } from 'react';
import type { CodeDiffProps } from './code-diff-props.ts';
import classes from './CodeDiff.module.css';
import { lazyComponent } from './lazyComponent.ts';

export type { CodeDiffProps };

// The merge view (CodeMirror and its diff) loads only when a page first shows a diff.
const CodeMergeView = lazyComponent(() => import('./CodeMergeView.tsx'));

/**
 * Two texts side by side with their differences marked (CodeMirror's merge view), read-only. On a narrow
 * screen the pair scrolls sideways inside its own box; the page keeps its width.
 */
export function CodeDiff(props: CodeDiffProps) {
  return (
    <div className={classes.box}>
      <Suspense fallback={<Skeleton height={160} radius={0} aria-busy="true" />}>
        <div className={classes.pair}>
          <CodeMergeView {...props} />
        </div>
      </Suspense>
    </div>
  );
}
