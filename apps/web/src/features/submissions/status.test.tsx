import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { EVALUATION_STATUSES, SUBMISSION_STATUSES } from '@kadai/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { POLL_INTERVAL_MS, STATUS_STYLE, isInProgress, pollInterval } from './status.ts';

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
    expect(STATUS_STYLE.Completed.tone).toBe('success');
    expect(STATUS_STYLE.InvalidFormat.tone).toBe('problem');
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
