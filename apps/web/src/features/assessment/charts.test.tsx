import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { ANALYSIS, HISTOGRAM } from './assessment-fixtures.ts';
import { binLabel, groupSkillsByType, trendPoints } from './chart-format.ts';
import { HistogramChart } from './HistogramChart.tsx';
import { SkillChart } from './SkillChart.tsx';
import { TrendChart } from './TrendChart.tsx';

function show(node: ReactNode) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>{node}</MantineProvider>
    </I18nextProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('the histogram', () => {
  it('names the class figures, every bin and the student’s own bin for screen readers', () => {
    show(<HistogramChart histogram={HISTOGRAM} subject="Loops" />);
    const chart = screen.getByRole('img');
    const name = chart.getAttribute('aria-labelledby')
      ? document.getElementById(chart.getAttribute('aria-labelledby') ?? '')?.textContent
      : '';
    expect(name).toContain('Class distribution of Loops: 18 students, mean 64%.');
    expect(name).toContain('Your result: 70–80 %.');
    expect(name).toContain('0–10 %: 0 students');
    expect(name).toContain('90–100 %: 1 student.');
    expect(screen.getByRole('img', { name: /Your result: 70–80 %/ })).toBe(chart);
    expect(screen.getByText('Your result: 70–80 %')).toBeTruthy();
  });

  it('marks the student’s bin with another colour, an outline and "You"', () => {
    const { container } = show(<HistogramChart histogram={HISTOGRAM} subject="Loops" />);
    const mine = container.querySelector('g[data-mine="true"]');
    expect(mine?.querySelector('rect')?.getAttribute('fill')).toBe('var(--mantine-color-orange-filled)');
    expect(mine?.textContent).toBe('5 · You');
    expect(container.querySelectorAll('g[data-mine]')).toHaveLength(1);
  });

  it('says when the student’s result does not count yet', () => {
    show(<HistogramChart histogram={{ ...HISTOGRAM, mine: null, my_ratio: null }} subject="Week 2" />);
    expect(screen.getByRole('img', { name: /Your result does not count yet/ })).toBeTruthy();
  });

  it('speaks of the student, not "you", on an editor’s view', () => {
    const { container } = show(<HistogramChart histogram={HISTOGRAM} subject="Loops" perspective="other" />);
    expect(screen.getByRole('img', { name: /The student's result: 70–80 %/ })).toBeTruthy();
    expect(container.querySelector('g[data-mine="true"]')?.textContent).toBe('5 · Student');
  });

  it('reads bins in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    expect(binLabel(HISTOGRAM.bins[7]!, i18n.t)).toBe('70〜80 %');
  });
});

describe('the skill chart', () => {
  it('draws one labelled chart per skill type', () => {
    show(<SkillChart skills={ANALYSIS.skills} />);
    expect(screen.getByRole('img', { name: 'Practice: Skills: Loops 80%' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Knowledge: Skills: Types 60%' })).toBeTruthy();
  });

  it('groups skills by type in the order they come', () => {
    const groups = groupSkillsByType([...ANALYSIS.skills, { ...ANALYSIS.skills[0]!, name: 'Recursion' }]);
    expect(groups.map((group) => [group.type, group.skills.map((skill) => skill.name)])).toEqual([
      ['Practice', ['Loops', 'Recursion']],
      ['Knowledge', ['Types']],
    ]);
  });
});

describe('the trend', () => {
  it('orders assignments and quizzes by due date as shares of their points', () => {
    expect(trendPoints(ANALYSIS).map((point) => [point.title, point.ratio])).toEqual([
      ['Week 1', 0.9],
      ['Quiz 1', 0.6],
      ['Week 2', null],
    ]);
  });

  it('summarises the points for screen readers and lists them under the chart', () => {
    show(<TrendChart points={trendPoints(ANALYSIS)} />);
    expect(
      screen.getByRole('img', {
        name: 'Your results in order of due date: Week 1 90%, Quiz 1 60%, Week 2 not counted yet',
      }),
    ).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });
});
