import { Box, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_SHOWN_CHARACTERS } from '../../ui/OutputBlock.tsx';
import { diffLines } from './diff.ts';
import classes from './OutputDiff.module.css';

const MARK = { same: ' ', removed: '−', added: '+' } as const;

/** Expected and actual output as a line diff: removed lines (expected only) and added (actual only). */
export function OutputDiff({ expected, actual }: { expected: string; actual: string }) {
  const { t } = useTranslation();
  const tooLong = expected.length + actual.length > 2 * MAX_SHOWN_CHARACTERS;
  const result = useMemo(() => (tooLong ? null : diffLines(expected, actual)), [expected, actual, tooLong]);
  const label = {
    same: '',
    removed: t('submissions.diff.expectedOnly'),
    added: t('submissions.diff.actualOnly'),
  };

  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {t('submissions.diff.title')}
        </Text>
        <Group gap="sm">
          <Text size="xs" className={classes.legendRemoved}>
            − {t('submissions.diff.expected')}
          </Text>
          <Text size="xs" className={classes.legendAdded}>
            + {t('submissions.diff.actual')}
          </Text>
        </Group>
      </Group>
      {result === null || result.tooLong ? (
        <Text size="sm" c="dimmed">
          {t('common.tooLongToShow')}
        </Text>
      ) : result.lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('submissions.diff.bothEmpty')}
        </Text>
      ) : (
        <>
          {result.identical ? (
            <Text size="xs" c="dimmed">
              {t('submissions.diff.identical')}
            </Text>
          ) : null}
          <Box component="pre" className={classes.diff} tabIndex={0} aria-label={t('submissions.diff.title')}>
            {result.lines.map((line, index) => (
              <div key={index} className={classes[line.kind]}>
                <span className={classes.number} aria-hidden>
                  {line.expectedLine ?? ''}
                </span>
                <span className={classes.number} aria-hidden>
                  {line.actualLine ?? ''}
                </span>
                <span className={classes.mark} aria-hidden>
                  {MARK[line.kind]}
                </span>
                {line.kind !== 'same' ? <VisuallyHidden>{label[line.kind]}: </VisuallyHidden> : null}
                <span>{line.text === '' ? ' ' : line.text}</span>
              </div>
            ))}
          </Box>
        </>
      )}
    </Stack>
  );
}
