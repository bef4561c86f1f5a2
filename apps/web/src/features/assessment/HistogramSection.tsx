import { Select, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { StudentAnalysis } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { histogramQuery, type HistogramSubject } from './assessment.queries.ts';
import type { Perspective } from './chart-format.ts';
import { HistogramChart } from './HistogramChart.tsx';

function subjectKey(subject: HistogramSubject): string {
  return subject.kind === 'assignment' ? `assignment:${subject.id}` : `skill:${subject.name}`;
}

/** Where the student stands in the class: a histogram of one skill or assignment, chosen in a list. */
export function HistogramSection({
  analysis,
  perspective,
}: {
  analysis: StudentAnalysis;
  perspective: Perspective;
}) {
  const { t } = useTranslation();
  const subjects: { subject: HistogramSubject; label: string; group: string }[] = [
    ...analysis.skills.map((skill) => ({
      subject: { kind: 'skill' as const, name: skill.name },
      label: skill.name,
      group: t('assessment.detail.skillsGroup'),
    })),
    ...analysis.assignments.map((assignment) => ({
      subject: { kind: 'assignment' as const, id: assignment.id },
      label: assignment.title,
      group: t('assessment.detail.assignmentsGroup'),
    })),
  ];
  const [chosen, setChosen] = useState<string | null>(null);
  const current = subjects.find((item) => subjectKey(item.subject) === chosen) ?? subjects[0];

  if (!current) return <Text c="dimmed">{t('assessment.detail.noHistogram')}</Text>;
  const groups = [...new Set(subjects.map((item) => item.group))].map((group) => ({
    group,
    items: subjects
      .filter((item) => item.group === group)
      .map((item) => ({ value: subjectKey(item.subject), label: item.label })),
  }));

  return (
    <Stack>
      <Select
        label={t('assessment.detail.histogramOf')}
        data={groups}
        value={subjectKey(current.subject)}
        onChange={setChosen}
        allowDeselect={false}
        searchable
        maw={360}
      />
      <HistogramView
        courseId={analysis.course}
        userId={analysis.user.id}
        subject={current.subject}
        label={current.label}
        perspective={perspective}
      />
    </Stack>
  );
}

function HistogramView({
  courseId,
  userId,
  subject,
  label,
  perspective,
}: {
  courseId: number;
  userId: number;
  subject: HistogramSubject;
  label: string;
  perspective: Perspective;
}) {
  const histogram = useQuery(histogramQuery(courseId, userId, subject));
  if (histogram.isError)
    return <ErrorState error={histogram.error} onRetry={() => void histogram.refetch()} />;
  if (!histogram.data) return <Skeleton height={220} aria-busy="true" />;
  return <HistogramChart histogram={histogram.data} subject={label} perspective={perspective} />;
}
