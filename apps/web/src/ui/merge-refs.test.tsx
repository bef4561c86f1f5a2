import { render } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { scrollAreaRefsTarget } from '../../vite-import-swaps.ts';
import { useMergeRefs } from './merge-refs.ts';

function Merged({ refs }: { refs: Parameters<typeof useMergeRefs<HTMLDivElement>>[0] }) {
  return <div ref={useMergeRefs(refs)} />;
}

describe("ScrollArea's useMergeRefs", () => {
  it('sets object and callback refs, and clears them when the element goes', () => {
    const object = createRef<HTMLDivElement>();
    const callback = vi.fn();
    const view = render(<Merged refs={[object, callback, undefined]} />);
    expect(object.current).toBeInstanceOf(HTMLDivElement);
    expect(callback).toHaveBeenCalledWith(object.current);
    view.unmount();
    expect(object.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
  });

  it("runs a callback ref's own cleanup instead of calling it with null", () => {
    const cleanup = vi.fn();
    const callback = vi.fn(() => cleanup);
    const view = render(<Merged refs={[callback]} />);
    view.unmount();
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('is no ref at all when every ref is empty', () => {
    function Probe() {
      const merged = useMergeRefs<HTMLDivElement>([null, undefined]);
      return <output>{merged === null ? 'none' : 'some'}</output>;
    }
    const view = render(<Probe />);
    expect(view.container.textContent).toBe('none');
  });
});

describe('the build gives it to ScrollArea only', () => {
  const scrollArea = '/x/node_modules/@mantine/core/esm/components/ScrollArea/ScrollArea.mjs';
  it('replaces @floating-ui/react in ScrollArea', () => {
    expect(scrollAreaRefsTarget('@floating-ui/react', scrollArea)).toMatch(/src[\\/]ui[\\/]merge-refs\.ts$/u);
  });
  it('leaves every other import alone', () => {
    expect(
      scrollAreaRefsTarget(
        '@floating-ui/react',
        '/x/node_modules/@mantine/core/esm/components/Popover/Popover.mjs',
      ),
    ).toBeNull();
    expect(scrollAreaRefsTarget('react', scrollArea)).toBeNull();
    expect(scrollAreaRefsTarget('@floating-ui/react', undefined)).toBeNull();
  });
});
