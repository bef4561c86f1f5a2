import { Alert, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { SimilarityReportSummary } from '@kadai/contracts';
import { isApiError } from '../../api/client.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { notifyError } from '../../ui/notify.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { assignmentQuery, parseId } from '../assignments/assignments.queries.ts';
import { useSession } from '../auth/session.ts';
import { canManageCourse } from '../courses/course-access.ts';
import { useCourse } from '../courses/useCourse.ts';
import { SimilarityResults } from './SimilarityResults.tsx';
import { isPending, similarityReportsQuery, useStartSimilarityReport } from './similarity.api.ts';

/**
 * The similarity report of an assignment (issue 39, docs/similarity.md): start a report, watch it run,
 * then read its pairs, clusters and a pair side by side. Editors of the course and staff; everyone else
 * gets NotFound, and students are never sent here.
 */
export function SimilarityReportPage() {
  const { t, i18n } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const assignmentId = parseId(useParams().assignment_id);
  const canManage = canManageCourse(course, isStaff);
  const reports = useQuery({
    ...similarityReportsQuery(course.id, assignmentId ?? 0),
    enabled: canManage && assignmentId !== null,
  });
  const assignment = useQuery({
    ...assignmentQuery(assignmentId ?? 0, course.id),
    enabled: canManage && assignmentId !== null,
  });
  const editorCourses = useSession((s) => s.editorCourses);
  const start = useStartSimilarityReport(course.id, assignmentId ?? 0);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [includeId, setIncludeId] = useState<number | null>(null);

  if (!canManage || assignmentId === null || isApiError(reports.error, 404)) return <NotFoundPage />;
  if (reports.isError) return <ErrorState error={reports.error} onRetry={() => void reports.refetch()} />;
  if (!reports.data) return <PageLoader />;
  const list = reports.data.results;
  const current = list.find((r) => r.id === chosenId) ?? list[0];
  const running = list.some((r) => isPending(r.status));
  const courses = assignment.data?.assignment.courses ?? [];
  const courseTitles = new Map(courses.map((c) => [c.course_id, c.course_title]));
  // Another course joins a report only if the caller edits it too (the API refuses the rest with 400).
  const others = courses.filter(
    (c) => c.course_id !== course.id && (isStaff || editorCourses.includes(c.course_id)),
  );
  const label = (r: SimilarityReportSummary) => {
    const base = `${formatDateTime(r.created_at, i18n.language)} — ${t(`similarity.status.${r.status}`)}`;
    if (r.include_course_id === null) return base;
    const title = courseTitles.get(r.include_course_id) ?? `#${r.include_course_id}`;
    return `${base} — ${t('similarity.withCourse', { course: title })}`;
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.similarityReport')}</Title>
        <Button
          leftSection={<IconPlayerPlay size={18} aria-hidden />}
          loading={start.isPending}
          disabled={running}
          onClick={() =>
            start.mutate(includeId, {
              onSuccess: (report) => setChosenId(report.id),
              onError: () => notifyError(t('similarity.startFailed')),
            })
          }
        >
          {t('similarity.start')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('similarity.intro')}
      </Text>
      {others.length > 0 ? (
        <Select
          label={t('similarity.includeLabel')}
          description={t('similarity.includeHint')}
          data={[
            { value: '', label: t('similarity.includeNone') },
            ...others.map((c) => ({ value: String(c.course_id), label: c.course_title })),
          ]}
          value={includeId === null ? '' : String(includeId)}
          onChange={(value) => setIncludeId(value ? Number(value) : null)}
          allowDeselect={false}
          maw={420}
        />
      ) : null}
      {list.length > 1 ? (
        <Select
          label={t('similarity.reportPicker')}
          data={list.map((r) => ({ value: String(r.id), label: label(r) }))}
          value={current ? String(current.id) : null}
          onChange={(value) => setChosenId(value === null ? null : Number(value))}
          allowDeselect={false}
          maw={420}
        />
      ) : null}
      {current ? (
        <ReportState summary={current} courseTitles={courseTitles} />
      ) : (
        <Text>{t('similarity.none')}</Text>
      )}
    </Stack>
  );
}

function ReportState({
  summary,
  courseTitles,
}: {
  summary: SimilarityReportSummary;
  courseTitles: ReadonlyMap<number, string>;
}) {
  const { t } = useTranslation();
  if (isPending(summary.status)) {
    return (
      <Alert
        color="blue"
        icon={<Loader size={16} aria-hidden />}
        title={t(`similarity.status.${summary.status}`)}
      >
        {t('similarity.runningHint')}
      </Alert>
    );
  }
  if (summary.status === 'failed') {
    return (
      <Alert
        color="red"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        title={t('similarity.status.failed')}
      >
        {summary.error ?? ''}
      </Alert>
    );
  }
  return <SimilarityResults summary={summary} courseTitles={courseTitles} />;
}
