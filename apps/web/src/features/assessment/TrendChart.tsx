import { Badge, Group, List, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, trendSummary, type Perspective, type TrendPoint } from './chart-format.ts';
import { CHART_COLORS } from './HistogramChart.tsx';

const WIDTH = 560;
const HEIGHT = 200;
const MARGIN = { top: 16, right: 16, bottom: 28, left: 44 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/**
 * The student's share of the points of each assignment and quiz in order of due date: points joined by
 * a line where consecutive ones count. Numbered points match the list under the chart, which names them.
 */
export function TrendChart({
  points,
  perspective = 'own',
}: {
  points: readonly TrendPoint[];
  perspective?: Perspective;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  if (points.length === 0) return <Text c="dimmed">{t('assessment.detail.noWork')}</Text>;
  const step = points.length > 1 ? PLOT_WIDTH / (points.length - 1) : 0;
  const x = (index: number) => MARGIN.left + (points.length > 1 ? index * step : PLOT_WIDTH / 2);
  const y = (ratio: number) => MARGIN.top + (1 - ratio) * PLOT_HEIGHT;
  const segments: string[] = [];
  points.forEach((point, index) => {
    const previous = points[index - 1];
    if (index > 0 && previous && previous.ratio !== null && point.ratio !== null) {
      segments.push(`M${x(index - 1)},${y(previous.ratio)}L${x(index)},${y(point.ratio)}`);
    }
  });

  return (
    <div>
      <svg
        role="img"
        aria-labelledby={titleId}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ maxWidth: WIDTH, display: 'block' }}
      >
        <title id={titleId}>{trendSummary(points, t, i18n.language, perspective)}</title>
        {[0, 0.5, 1].map((ratio) => (
          <g key={ratio}>
            <line
              x1={MARGIN.left}
              x2={MARGIN.left + PLOT_WIDTH}
              y1={y(ratio)}
              y2={y(ratio)}
              stroke={CHART_COLORS.axis}
            />
            <text
              x={MARGIN.left - 6}
              y={y(ratio) + 4}
              textAnchor="end"
              fontSize={11}
              fill={CHART_COLORS.dimmed}
            >
              {formatPercent(ratio, i18n.language)}
            </text>
          </g>
        ))}
        <path d={segments.join('')} stroke={CHART_COLORS.bar} strokeWidth={2} fill="none" />
        {points.map((point, index) => (
          <g key={`${point.kind}-${point.id}`}>
            {point.ratio !== null ? (
              point.kind === 'quiz' ? (
                <rect
                  x={x(index) - 5}
                  y={y(point.ratio) - 5}
                  width={10}
                  height={10}
                  fill={CHART_COLORS.mine}
                />
              ) : (
                <circle cx={x(index)} cy={y(point.ratio)} r={5} fill={CHART_COLORS.bar} />
              )
            ) : null}
            <text x={x(index)} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill={CHART_COLORS.dimmed}>
              {index + 1}
            </text>
          </g>
        ))}
      </svg>
      <List type="ordered" size="sm" mt="xs" spacing={2}>
        {points.map((point) => (
          <List.Item key={`${point.kind}-${point.id}`}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm">{point.title}</Text>
              <Badge size="xs" variant="light" color={point.kind === 'quiz' ? 'orange' : 'blue'}>
                {t(`assessment.detail.kind.${point.kind}`)}
              </Badge>
              <Text size="sm" c={point.ratio === null ? 'dimmed' : undefined}>
                {point.ratio === null
                  ? t('assessment.chart.noScore')
                  : formatPercent(point.ratio, i18n.language)}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
