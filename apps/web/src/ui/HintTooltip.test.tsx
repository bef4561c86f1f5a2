import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HintTooltip } from './HintTooltip.tsx';
import { settleLazyLoads } from './lazyComponent.ts';

describe('HintTooltip', () => {
  it('draws its child at once, and the hint once the tooltip’s code has arrived', async () => {
    render(
      <MantineProvider>
        <HintTooltip label="Your own due date" opened transitionProps={{ duration: 0 }}>
          <button type="button">Extended</button>
        </HintTooltip>
      </MantineProvider>,
    );
    // The child at once. (Whether the hint is already there depends on whether another file of this
    // worker loaded the tooltip's code before: the web tests share their modules.)
    expect(screen.getByRole('button', { name: 'Extended' })).toBeTruthy();
    await settleLazyLoads();
    expect((await screen.findByRole('tooltip')).textContent).toBe('Your own due date');
    expect(screen.getByRole('button', { name: 'Extended' })).toBeTruthy();
  });
});
