import { Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDiff } from '../../ui/CodeDiff.tsx';
import type { LineChanges } from '../../ui/line-changes.ts';
import { MAX_SHOWN_CHARACTERS } from '../../ui/OutputBlock.tsx';
import { extensionOf } from '../assignments/file-limits.ts';
import { pairFilesByName, type ComparedFile } from './compare-sides.ts';

interface Side {
  /** What the side is ("#12", "Reference solution"), in the names of its code. */
  name: string;
  files: readonly ComparedFile[];
}

/** The files of two sides, one pair at a time (a picker when there are several), as a diff. */
export function CompareFiles({
  left,
  right,
  entryFile,
}: {
  left: Side;
  right: Side;
  entryFile: string | null;
}) {
  const { t } = useTranslation();
  const pairs = pairFilesByName(left.files, right.files);
  const [chosen, setChosen] = useState<string | null>(null);
  const [changes, setChanges] = useState<{ key: string; changes: LineChanges } | null>(null);
  const pair =
    pairs.find((candidate) => candidate.filename === chosen) ??
    pairs.find((candidate) => candidate.filename === entryFile) ??
    pairs[0];
  if (pair === undefined) return <Text size="sm">{t('submissions.compare.noFiles')}</Text>;

  const leftText = pair.left === null ? '' : pair.left.content;
  const rightText = pair.right === null ? '' : pair.right.content;
  const key = `${left.name}|${right.name}|${pair.filename}`;
  const shown = changes?.key === key ? changes.changes : null;
  const onlyOn = (filename: string) => {
    const other = pairs.find((candidate) => candidate.filename === filename);
    if (other?.left === null) return t('submissions.compare.onlyRight', { name: filename });
    if (other?.right === null) return t('submissions.compare.onlyLeft', { name: filename });
    return filename;
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm">
        {pairs.length > 1 ? (
          <NativeSelect
            label={t('submissions.compare.file')}
            data={pairs.map((candidate) => ({
              value: candidate.filename,
              label: onlyOn(candidate.filename),
            }))}
            value={pair.filename}
            onChange={(event) => setChosen(event.currentTarget.value)}
          />
        ) : (
          <Text size="sm" fw={600} ff="monospace">
            {onlyOn(pair.filename)}
          </Text>
        )}
        <Text size="sm" aria-live="polite" data-testid="compare-changes">
          {shown === null
            ? null
            : shown.changed === 0
              ? t('submissions.compare.same')
              : t('submissions.compare.changes', {
                  count: shown.changed,
                  added: shown.added,
                  removed: shown.removed,
                })}
        </Text>
      </Group>
      {leftText === null || rightText === null ? (
        <Text size="sm" c="dimmed">
          {t('submissions.compare.binary', { name: pair.filename })}
        </Text>
      ) : leftText.length > MAX_SHOWN_CHARACTERS || rightText.length > MAX_SHOWN_CHARACTERS ? (
        <Text size="sm" c="dimmed">
          {t('common.tooLongToShow')}
        </Text>
      ) : (
        <CodeDiff
          left={{
            text: leftText,
            label: t('submissions.compare.code', { side: left.name, name: pair.filename }),
          }}
          right={{
            text: rightText,
            label: t('submissions.compare.code', { side: right.name, name: pair.filename }),
          }}
          language={extensionOf(pair.filename) === '.py' ? 'python' : 'plain'}
          onChanges={(found) => setChanges({ key, changes: found })}
        />
      )}
    </Stack>
  );
}
