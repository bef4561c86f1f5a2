import { NativeSelect, SimpleGrid } from '@mantine/core';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import type { CompareWith } from './compare-sides.ts';

interface ComparePickersProps {
  /** The left side's submission. */
  leftId: number;
  right: CompareWith | null;
  /** The author's submissions to the assignment, newest first. */
  submissions: readonly Submission[];
  /** Whether the reader may compare with the reference solution (editors only). */
  hasReference: boolean;
  onLeft: (id: number) => void;
  onRight: (value: CompareWith) => void;
}

const REFERENCE = 'reference';

/** "Submission #12 · Mon, 3 Nov 2026, 14:02 · 8 / 10": one line that tells the submissions apart. */
function useSubmissionLabel() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (submission: Submission) =>
    t('submissions.compare.option', {
      id: submission.id,
      date: format.dateTime(submission.created_at),
      outcome:
        submission.score === null
          ? t(`status.${submission.status}`)
          : t('submissions.detail.score', { score: submission.score, max: submission.max_score ?? '–' }),
    });
}

/** The two sides to compare: a submission on the left; another one or the reference on the right. */
export function ComparePickers({
  leftId,
  right,
  submissions,
  hasReference,
  onLeft,
  onRight,
}: ComparePickersProps) {
  const { t } = useTranslation();
  const label = useSubmissionLabel();
  const options = submissions.map((submission) => ({
    value: String(submission.id),
    label: label(submission),
  }));
  const rightOptions = options.filter((option) => option.value !== String(leftId));
  if (hasReference) rightOptions.push({ value: REFERENCE, label: t('submissions.compare.reference') });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <NativeSelect
        label={t('submissions.compare.left')}
        data={options}
        value={String(leftId)}
        onChange={(event) => onLeft(Number(event.currentTarget.value))}
      />
      <NativeSelect
        label={t('submissions.compare.right')}
        data={
          right === null
            ? [{ value: '', label: t('submissions.compare.choose'), disabled: true }, ...rightOptions]
            : rightOptions
        }
        value={right === null ? '' : String(right)}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onRight(value === REFERENCE ? REFERENCE : Number(value));
        }}
      />
    </SimpleGrid>
  );
}
