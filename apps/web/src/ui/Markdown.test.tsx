import { MantineProvider } from '@mantine/core';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown.tsx';
import { settleLazyLoads } from './lazyComponent.ts';

describe('Markdown', () => {
  it('highlights Python once its parser is there without drawing the text again', async () => {
    const source =
      'A statement long enough to be the largest paint.\n\n```python\ndef f():\n    return 1\n```';
    const view = render(
      <MantineProvider>
        <Markdown source={source} />
      </MantineProvider>,
    );
    const paragraph = view.container.querySelector('p');
    expect(paragraph?.textContent).toContain('A statement');
    await settleLazyLoads();
    await waitFor(() =>
      expect(view.container.querySelector('pre code .tok-keyword')?.textContent).toBe('def'),
    );
    // The same element: a new one would be a new largest paint, at the moment the parser arrived.
    expect(view.container.querySelector('p')).toBe(paragraph);
    // A render with the same source leaves the highlighted block as it is.
    view.rerender(
      <MantineProvider>
        <Markdown source={source} />
      </MantineProvider>,
    );
    expect(view.container.querySelector('pre code .tok-keyword')?.textContent).toBe('def');
    view.rerender(
      <MantineProvider>
        <Markdown source={'New text.\n\n```\nwhile True:\n    pass\n```'} />
      </MantineProvider>,
    );
    await waitFor(() =>
      expect(view.container.querySelector('pre code .tok-keyword')?.textContent).toBe('while'),
    );
  });
});
