import { NativeSelect, SimpleGrid } from '@mantine/core';
import type { Submission } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import type { CompareWith } from './compare-sides.ts';

interface ComparePickersProps {
  /** The left side: what the submission is compared with (null until known). */
  other: CompareWith | null;
  /** The right side: the submission of the page's address. */
  submissionId: number;
  /** The author's submissions to the assignment, newest first. */
  submissions: readonly Submission[];
  /** Whether the reader may compare with the reference solution (editors only). */
  hasReference: boolean;
  onOther: (value: CompareWith) => void;
  onSubmission: (id: number) => void;
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

/**
 * The two sides to compare, the older on the left as a diff reads: on the left another submission or the
 * reference; on the right the submission of the page.
 */
export function ComparePickers({
  other,
  submissionId,
  submissions,
  hasReference,
  onOther,
  onSubmission,
}: ComparePickersProps) {
  const { t } = useTranslation();
  const label = useSubmissionLabel();
  const options = submissions.map((submission) => ({
    value: String(submission.id),
    label: label(submission),
  }));
  const otherOptions = options.filter((option) => option.value !== String(submissionId));
  if (hasReference) otherOptions.push({ value: REFERENCE, label: t('submissions.compare.reference') });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <NativeSelect
        label={t('submissions.compare.left')}
        data={
          other === null
            ? [{ value: '', label: t('submissions.compare.choose'), disabled: true }, ...otherOptions]
            : otherOptions
        }
        value={other === null ? '' : String(other)}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onOther(value === REFERENCE ? REFERENCE : Number(value));
        }}
      />
      <NativeSelect
        label={t('submissions.compare.right')}
        data={options}
        value={String(submissionId)}
        onChange={(event) => onSubmission(Number(event.currentTarget.value))}
      />
    </SimpleGrid>
  );
}
