import { Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, groupSkillsByType, skillChartSummary, type SkillScore } from './chart-format.ts';
import { CHART_COLORS } from './HistogramChart.tsx';

const WIDTH = 560;
const ROW = 28;
const LABEL_WIDTH = 180;
const VALUE_WIDTH = 64;
const BAR_WIDTH = WIDTH - LABEL_WIDTH - VALUE_WIDTH;

/** Keeps long skill names inside the label column (the full name is in the bar's title and the label). */
function shorten(name: string, max = 22): string {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/** One type's skills as horizontal bars of the share of their points the student earned. */
function SkillBars({ skills, caption }: { skills: SkillScore[]; caption: string }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const height = skills.length * ROW + 8;
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: WIDTH, display: 'block' }}
    >
      <title id={titleId}>{`${caption}: ${skillChartSummary(skills, t, i18n.language)}`}</title>
      {skills.map((skill, index) => {
        const top = 4 + index * ROW;
        const ratio = skill.score.ratio;
        return (
          <g key={`${skill.skill_type}/${skill.name}`}>
            <text
              x={LABEL_WIDTH - 8}
              y={top + ROW / 2 + 4}
              textAnchor="end"
              fontSize={13}
              fill={CHART_COLORS.text}
            >
              {shorten(skill.name)}
            </text>
            <rect
              x={LABEL_WIDTH}
              y={top + 5}
              width={BAR_WIDTH}
              height={ROW - 10}
              fill="none"
              stroke={CHART_COLORS.axis}
            />
            {ratio !== null ? (
              <rect
                x={LABEL_WIDTH}
                y={top + 5}
                width={ratio * BAR_WIDTH}
                height={ROW - 10}
                fill={CHART_COLORS.bar}
              />
            ) : null}
            <text
              x={LABEL_WIDTH + BAR_WIDTH + 8}
              y={top + ROW / 2 + 4}
              fontSize={13}
              fill={ratio === null ? CHART_COLORS.dimmed : CHART_COLORS.text}
            >
              {formatPercent(ratio, i18n.language)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** The student's skills, a chart per skill type (one when the page is filtered to a type). */
export function SkillChart({ skills }: { skills: readonly SkillScore[] }) {
  const { t } = useTranslation();
  if (skills.length === 0) return <Text c="dimmed">{t('assessment.detail.noSkills')}</Text>;
  return (
    <Stack gap="md">
      {groupSkillsByType(skills).map((group) => (
        <div key={group.type}>
          <Text fw={600} size="sm" mb={4}>
            {group.type}
          </Text>
          <SkillBars skills={group.skills} caption={group.type} />
        </div>
      ))}
    </Stack>
  );
}
