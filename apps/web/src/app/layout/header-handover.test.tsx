import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { noteFocusedStandIn, standInProps, useTakeOver } from './header-handover.ts';

// A real control: the button takes over from the stand-in and says whether its menu opens at once.
function RealControl() {
  const { ref, openedByStandIn } = useTakeOver('language');
  return (
    <button ref={ref} type="button" data-opened={openedByStandIn}>
      real
    </button>
  );
}

// What Header does with Suspense: the stand-in until the real control has arrived.
function Swap() {
  const [arrived, setArrived] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  return (
    <div ref={group}>
      {arrived ? (
        <RealControl />
      ) : (
        <button type="button" {...standInProps('language', 'menu')}>
          stand-in
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          noteFocusedStandIn(group.current);
          setArrived(true);
        }}
      >
        arrive
      </button>
    </div>
  );
}

describe('the header controls that stand in while their menus load', () => {
  it('announce a menu, closed', () => {
    render(<Swap />);
    const standIn = screen.getByRole('button', { name: 'stand-in' });
    expect(standIn.getAttribute('aria-haspopup')).toBe('menu');
    expect(standIn.getAttribute('aria-expanded')).toBe('false');
  });

  it('hand the focus to the real control', () => {
    render(<Swap />);
    act(() => screen.getByRole('button', { name: 'stand-in' }).focus());
    act(() => screen.getByRole('button', { name: 'arrive' }).click());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'real' }));
    expect(screen.getByRole('button', { name: 'real' }).getAttribute('data-opened')).toBe('false');
  });

  it('open the menu at once when the stand-in was clicked, once', () => {
    const first = render(<Swap />);
    fireEvent.click(screen.getByRole('button', { name: 'stand-in' }));
    fireEvent.click(screen.getByRole('button', { name: 'arrive' }));
    expect(screen.getByRole('button', { name: 'real' }).getAttribute('data-opened')).toBe('true');
    first.unmount();

    // The click was answered: a later arrival does not open the menu again.
    render(<Swap />);
    fireEvent.click(screen.getByRole('button', { name: 'arrive' }));
    expect(screen.getByRole('button', { name: 'real' }).getAttribute('data-opened')).toBe('false');
  });

  it('do not hand over a focus the reader has moved on from', () => {
    render(<Swap />);
    act(() => screen.getByRole('button', { name: 'stand-in' }).focus());
    act(() => screen.getByRole('button', { name: 'arrive' }).focus());
    act(() => screen.getByRole('button', { name: 'arrive' }).click());
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'real' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'arrive' }));
  });
});
