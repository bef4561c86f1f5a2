import { Badge, Box, CloseButton, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { personName, type SimilarityFragment, type SimilarityPairSide } from '@kadai/contracts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { similarityPairQuery } from './similarity.api.ts';

/** One colour per fragment, the same on both sides, so a reader sees which part matches which. */
const COLORS = ['yellow', 'cyan', 'grape', 'lime', 'orange', 'pink', 'teal', 'indigo'] as const;

/** Line (1-based) → the fragment that covers it, for one side; the first fragment wins an overlap. */
export function fragmentOfLine(fragments: SimilarityFragment[], side: 'left' | 'right'): Map<number, number> {
  const of = new Map<number, number>();
  fragments.forEach((fragment, index) => {
    for (let line = fragment[side].start_line; line <= fragment[side].end_line; line++) {
      if (!of.has(line)) of.set(line, index);
    }
  });
  return of;
}

function CodeSide({
  side,
  fragments,
  which,
}: {
  side: SimilarityPairSide;
  fragments: SimilarityFragment[];
  which: 'left' | 'right';
}) {
  const { t, i18n } = useTranslation();
  const marked = fragmentOfLine(fragments, which);
  const lines = side.content.replace(/\n$/, '').split('\n');
  const width = String(lines.length).length;
  return (
    <Stack gap={4}>
      <Text fw={600}>{personName(side.user, i18n.language) || side.user.email}</Text>
      <Box
        component="pre"
        aria-label={t('similarity.codeOf', { name: side.user.email })}
        tabIndex={0}
        style={{
          margin: 0,
          overflow: 'auto',
          maxHeight: '70vh',
          fontSize: 'var(--mantine-font-size-xs)',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        {lines.map((line, n) => {
          const fragment = marked.get(n + 1);
          const text = `${String(n + 1).padStart(width)}  ${line}`;
          return fragment === undefined ? (
            <div key={n}>{text || ' '}</div>
          ) : (
            <Box
              key={n}
              component="mark"
              display="block"
              c="var(--mantine-color-text)"
              bg={`var(--mantine-color-${COLORS[fragment % COLORS.length]}-light)`}
            >
              {text}
            </Box>
          );
        })}
      </Box>
    </Stack>
  );
}

/** Two submissions of a pair side by side, matched fragments highlighted in the same colour. */
export function SimilarityPairPanel({
  reportId,
  left,
  right,
  onClose,
}: {
  reportId: number;
  left: number;
  right: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const pair = useQuery(similarityPairQuery(reportId, left, right));
  return (
    <Section
      title={t('similarity.pairTitle')}
      actions={<CloseButton onClick={onClose} aria-label={t('similarity.closePair')} />}
    >
      {pair.isError ? (
        <ErrorState error={pair.error} onRetry={() => void pair.refetch()} />
      ) : !pair.data ? (
        <Skeleton height={320} aria-busy="true" />
      ) : (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge>
              {t('similarity.similarityValue', { value: `${Math.round(pair.data.similarity * 100)} %` })}
            </Badge>
            <Text size="sm" c="dimmed">
              {t('similarity.fragmentCount', { count: pair.data.fragments.length })}
            </Text>
          </Group>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <CodeSide side={pair.data.left} fragments={pair.data.fragments} which="left" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <CodeSide side={pair.data.right} fragments={pair.data.fragments} which="right" />
            </Grid.Col>
          </Grid>
        </Stack>
      )}
    </Section>
  );
}
