import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { EVALUATION_STATUSES, SUBMISSION_STATUSES } from '@kadai/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { POLL_INTERVAL_MS, STATUS_STYLE, isInProgress, pollInterval } from './status.ts';
import { OUTCOME_COLOR, scoreOutcome } from './test-results.ts';

const ALL = [...SUBMISSION_STATUSES, ...EVALUATION_STATUSES];

function badgeText(status: (typeof ALL)[number]): string {
  render(
    <MantineProvider>
      <StatusBadge status={status} />
    </MantineProvider>,
  );
  const badge = document.querySelector(`[data-status="${status}"]`);
  return badge?.textContent ?? '';
}

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe('status badges (spec §4)', () => {
  it('shows the English labels exactly as the spec writes them', async () => {
    await i18n.changeLanguage('en-US');
    const labels = Object.fromEntries(ALL.map((status) => [status, badgeText(status)]));
    expect(labels).toEqual({
      Pending: 'Pending',
      Scheduled: 'Scheduled',
      Executing: 'Executing',
      Completed: 'Completed',
      Canceled: 'Canceled',
      InternalError: 'InternalError',
      InvalidFormat: 'InvalidFormat',
      Correct: 'Correct',
      Wrong: 'Wrong',
    });
  });

  it('shows Japanese labels, Scheduled as 採点待ち', async () => {
    await i18n.changeLanguage('ja');
    expect(badgeText('Scheduled')).toBe('採点待ち');
    expect(badgeText('Correct')).toBe('正解');
    expect(badgeText('Wrong')).toBe('不正解');
    expect(screen.getByText('不正解')).toBeTruthy();
  });

  it('gives every status a colour, and success and failure different ones', () => {
    expect(Object.keys(STATUS_STYLE).sort()).toEqual([...ALL].sort());
    expect(STATUS_STYLE.Correct.color).not.toBe(STATUS_STYLE.Wrong.color);
    expect(STATUS_STYLE.Scheduled.color).not.toBe(STATUS_STYLE.Executing.color);
    // Completed is a state: neutral, until a score says how it went (below).
    expect(STATUS_STYLE.Completed.tone).toBe('neutral');
    expect(STATUS_STYLE.InvalidFormat.tone).toBe('problem');
  });
});

describe('result badges, coloured by outcome', () => {
  function badge(props: Parameters<typeof StatusBadge>[0]) {
    const { container, unmount } = render(
      <MantineProvider>
        <StatusBadge {...props} />
      </MantineProvider>,
    );
    const element = container.querySelector('[data-status]');
    const result = {
      outcome: element?.getAttribute('data-outcome') ?? null,
      icon: element?.querySelector('svg')?.getAttribute('class') ?? '',
      style: element?.getAttribute('style') ?? '',
      text: element?.textContent ?? '',
    };
    unmount();
    return result;
  }
  const colourOf = (name: string) => `var(--mantine-color-${name}-light-color)`;

  it('reads full marks, some points and none from a graded score', () => {
    expect(scoreOutcome('Completed', 10, 10)).toBe('all');
    expect(scoreOutcome('Completed', 7, 10)).toBe('some');
    expect(scoreOutcome('Completed', 0, 10)).toBe('none');
    // Not graded, no score yet, or nothing to score: no outcome.
    expect(scoreOutcome('Executing', 10, 10)).toBeNull();
    expect(scoreOutcome('InternalError', 0, 10)).toBeNull();
    expect(scoreOutcome('Completed', null, 10)).toBeNull();
    expect(scoreOutcome('Completed', 0, 0)).toBeNull();
    expect(OUTCOME_COLOR).toEqual({ all: 'green', some: 'orange', none: 'red' });
  });

  it('gives a graded submission green, orange or red with its own icon, the label unchanged', async () => {
    await i18n.changeLanguage('en-US');
    const full = badge({ status: 'Completed', score: 10, max: 10 });
    const partial = badge({ status: 'Completed', score: 4, max: 10 });
    const zero = badge({ status: 'Completed', score: 0, max: 10 });
    expect([full.outcome, partial.outcome, zero.outcome]).toEqual(['all', 'some', 'none']);
    expect(full.style).toContain(colourOf('green'));
    expect(partial.style).toContain(colourOf('orange'));
    expect(zero.style).toContain(colourOf('red'));
    // Not colour alone: each outcome has its own icon.
    expect(full.icon).toContain('tabler-icon-circle-check');
    expect(partial.icon).toContain('tabler-icon-alert-triangle');
    expect(zero.icon).toContain('tabler-icon-circle-x');
    expect([full.text, partial.text, zero.text]).toEqual(['Completed', 'Completed', 'Completed']);
  });

  it('keeps grading states in their own colours, whatever the score', () => {
    for (const status of ['Pending', 'Scheduled', 'Executing', 'InternalError', 'Canceled'] as const) {
      const shown = badge({ status, score: 10, max: 10 });
      expect(shown.outcome, status).toBeNull();
      expect(shown.style, status).toContain(colourOf(STATUS_STYLE[status].color));
    }
    // A Completed badge that knows no score (the assignment list's latest status) stays neutral.
    expect(badge({ status: 'Completed' }).style).toContain(colourOf('gray'));
  });
});

describe('polling', () => {
  it('polls while a submission waits or runs, and stops once every one has finished', () => {
    expect(SUBMISSION_STATUSES.filter(isInProgress)).toEqual(['Pending', 'Scheduled', 'Executing']);
    expect(pollInterval(['Completed', 'Scheduled'])).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(['Executing'])).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(['Completed', 'Canceled', 'InvalidFormat', 'InternalError'])).toBe(false);
    expect(pollInterval([])).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
    expect(POLL_INTERVAL_MS).toBeGreaterThanOrEqual(1000);
    expect(POLL_INTERVAL_MS).toBeLessThanOrEqual(2000);
  });
});
