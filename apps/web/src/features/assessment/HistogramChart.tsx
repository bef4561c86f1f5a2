import { Group, Text } from '@mantine/core';
import type { Histogram } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, histogramSummary, myResultLabel, type Perspective } from './chart-format.ts';

const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 24, right: 12, bottom: 36, left: 36 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** Colours from the theme's variables, so the chart follows the light and dark schemes. */
export const CHART_COLORS = {
  bar: 'var(--mantine-color-blue-filled)',
  mine: 'var(--mantine-color-orange-filled)',
  axis: 'var(--mantine-color-default-border)',
  text: 'var(--mantine-color-text)',
  dimmed: 'var(--mantine-color-dimmed)',
} as const;

/**
 * The class's results in ten bins with the student's own bin in another colour, outlined and marked
 * "You" (colour is not the only signal); the mean is a dashed line. Screen readers get every number in
 * the label, and the student's bin is also written under the chart.
 */
export function HistogramChart({
  histogram,
  subject,
  perspective = 'own',
}: {
  histogram: Histogram;
  subject: string;
  perspective?: Perspective;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const summary = histogramSummary(histogram, subject, t, i18n.language, perspective);
  const marker = perspective === 'own' ? t('assessment.chart.you') : t('assessment.chart.student');
  const maxCount = Math.max(1, ...histogram.bins.map((bin) => bin.count));
  const binWidth = PLOT_WIDTH / Math.max(1, histogram.bins.length);
  const y = (count: number) => MARGIN.top + PLOT_HEIGHT - (count / maxCount) * PLOT_HEIGHT;
  const x = (ratio: number) => MARGIN.left + ratio * PLOT_WIDTH;

  return (
    <div>
      <svg
        role="img"
        aria-labelledby={titleId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ maxWidth: WIDTH, display: 'block' }}
      >
        <title id={titleId}>{summary}</title>
        <line
          x1={MARGIN.left}
          x2={MARGIN.left + PLOT_WIDTH}
          y1={MARGIN.top + PLOT_HEIGHT}
          y2={MARGIN.top + PLOT_HEIGHT}
          stroke={CHART_COLORS.axis}
        />
        <text
          x={MARGIN.left - 6}
          y={y(maxCount) + 4}
          textAnchor="end"
          fontSize={12}
          fill={CHART_COLORS.dimmed}
        >
          {maxCount}
        </text>
        <text x={MARGIN.left - 6} y={y(0)} textAnchor="end" fontSize={12} fill={CHART_COLORS.dimmed}>
          0
        </text>
        {histogram.bins.map((bin, index) => {
          const isMine = histogram.mine === index;
          const left = MARGIN.left + index * binWidth + 2;
          const top = y(bin.count);
          return (
            <g key={index} data-mine={isMine || undefined}>
              <rect
                x={left}
                y={top}
                width={binWidth - 4}
                height={MARGIN.top + PLOT_HEIGHT - top}
                fill={isMine ? CHART_COLORS.mine : CHART_COLORS.bar}
                stroke={isMine ? CHART_COLORS.text : 'none'}
                strokeWidth={isMine ? 2 : 0}
              />
              {bin.count > 0 ? (
                <text
                  x={left + (binWidth - 4) / 2}
                  y={top - 4}
                  textAnchor="middle"
                  fontSize={11}
                  fill={CHART_COLORS.text}
                >
                  {isMine ? `${bin.count} · ${marker}` : bin.count}
                </text>
              ) : isMine ? (
                <text
                  x={left + (binWidth - 4) / 2}
                  y={top - 4}
                  textAnchor="middle"
                  fontSize={11}
                  fill={CHART_COLORS.text}
                >
                  {marker}
                </text>
              ) : null}
            </g>
          );
        })}
        {histogram.bins.map((bin, index) => (
          <text
            key={`tick-${index}`}
            x={x(bin.from)}
            y={HEIGHT - MARGIN.bottom + 16}
            textAnchor="middle"
            fontSize={11}
            fill={CHART_COLORS.dimmed}
          >
            {Math.round(bin.from * 100)}
          </text>
        ))}
        <text
          x={x(1)}
          y={HEIGHT - MARGIN.bottom + 16}
          textAnchor="middle"
          fontSize={11}
          fill={CHART_COLORS.dimmed}
        >
          100
        </text>
        <text
          x={MARGIN.left + PLOT_WIDTH / 2}
          y={HEIGHT - 4}
          textAnchor="middle"
          fontSize={12}
          fill={CHART_COLORS.dimmed}
        >
          {t('assessment.chart.percentAxis')}
        </text>
        {histogram.mean !== null ? (
          <line
            x1={x(histogram.mean)}
            x2={x(histogram.mean)}
            y1={MARGIN.top - 8}
            y2={MARGIN.top + PLOT_HEIGHT}
            stroke={CHART_COLORS.text}
            strokeDasharray="4 3"
          />
        ) : null}
      </svg>
      <Group gap="md" mt={4}>
        <Text size="sm" fw={600}>
          {myResultLabel(histogram, t, perspective)}
        </Text>
        <Text size="sm" c="dimmed">
          {t('assessment.chart.classFacts', {
            count: histogram.students,
            mean: formatPercent(histogram.mean, i18n.language),
          })}
        </Text>
      </Group>
    </div>
  );
}
