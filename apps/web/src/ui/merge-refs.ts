import { useMemo, useRef, type Ref, type RefCallback } from 'react';

// @floating-ui/react's `useMergeRefs`, for Mantine's ScrollArea only (vite-import-swaps.ts): its
// one import from @floating-ui would put the whole of @floating-ui that the app uses (~40 KB) into the
// shell, where the dialogs (ModalsProvider → Modal → ScrollArea) bring it. Same behaviour: a ref
// callback that sets every given ref, calls their React 19 cleanups when the element goes, and is
// null when every ref is.

type MaybeRef<T> = Ref<T> | undefined;

export function useMergeRefs<T>(refs: readonly MaybeRef<T>[]): RefCallback<T> | null {
  const cleanup = useRef<(() => void) | undefined>(undefined);
  // The refs are the dependencies, as in the original: a new ref callback whenever one of them changes
  // (the callers pass a fresh array literal of their refs on every render).
  // eslint-disable-next-line react-hooks/exhaustive-deps, react-hooks/use-memo -- the refs are the dependency list
  return useMemo(() => mergeRefs(refs, cleanup), refs);
}

function mergeRefs<T>(
  refs: readonly MaybeRef<T>[],
  cleanup: { current: (() => void) | undefined },
): RefCallback<T> | null {
  if (refs.every((ref) => ref == null)) return null;
  return (value) => {
    cleanup.current?.();
    cleanup.current = undefined;
    if (value == null) return;
    const cleanups = refs.map((ref) => {
      if (ref == null) return undefined;
      if (typeof ref === 'function') {
        const result = ref(value);
        return typeof result === 'function' ? result : () => void ref(null);
      }
      ref.current = value;
      return () => {
        ref.current = null;
      };
    });
    cleanup.current = () => cleanups.forEach((run) => run?.());
  };
}
