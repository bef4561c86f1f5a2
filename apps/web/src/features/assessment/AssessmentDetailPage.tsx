import { Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { useSession } from '../auth/session.ts';
import { memberName } from '../courses/member-name.ts';
import { parseCourseId } from '../courses/courses.queries.ts';
import { canManageAssessment } from './assessment-access.ts';
import { studentAnalysisQuery } from './assessment.queries.ts';
import { formatPercent, trendPoints } from './chart-format.ts';
import { FeedbackSection } from './FeedbackSection.tsx';
import { HistogramSection } from './HistogramSection.tsx';
import { SkillChart } from './SkillChart.tsx';
import { TrendChart } from './TrendChart.tsx';
import { WorkshopsPanel } from './WorkshopsPanel.tsx';

/**
 * One student's assessment: skills by type, where they stand in the class, their trend over the work,
 * feedback and workshops. The student reads their own; editors and staff read every student's and write
 * feedback and attendance. The skill type filter is in the URL (`?skill_type=`).
 */
export function AssessmentDetailPage() {
  const { t, i18n } = useTranslation();
  const course = useCourse();
  const userId = parseCourseId(useParams().user_id);
  const isStaff = useSession((s) => s.is_staff);
  const editorCourses = useSession((s) => s.editorCourses);
  const canManage = canManageAssessment(course, { is_staff: isStaff, editorCourses });
  const viewerId = useSession((s) => s.userId);
  const [params, setParams] = useSearchParams();
  const skillType = params.get('skill_type') || null;
  const analysis = useQuery({
    ...studentAnalysisQuery(course.id, userId ?? 0, skillType),
    enabled: userId !== null,
  });

  if (userId === null || isApiError(analysis.error, 404)) return <NotFoundPage />;
  const heading = <Title order={1}>{t('routes.assessmentDetail')}</Title>;
  if (analysis.isError) {
    return (
      <>
        {heading}
        <ErrorState error={analysis.error} onRetry={() => void analysis.refetch()} />
      </>
    );
  }
  const data = analysis.data;
  if (!data) {
    return (
      <Stack>
        {heading}
        <Skeleton height={240} aria-busy="true" />
      </Stack>
    );
  }

  const perspective = viewerId === data.user.id ? 'own' : 'other';
  return (
    <Stack gap="lg">
      <div>
        {heading}
        <Group gap="md" mt={4}>
          <Text fw={600}>{memberName(data.user, i18n.language)}</Text>
          <Text c="dimmed" size="sm">
            {data.user.email}
          </Text>
        </Group>
        <Text mt="xs">
          {t('assessment.detail.total', {
            percent: formatPercent(data.total.ratio, i18n.language),
            earned: data.total.earned,
            possible: data.total.possible,
          })}
        </Text>
      </div>
      <Section
        title={t('assessment.detail.skills')}
        actions={
          <Select
            label={t('assessment.detail.skillType')}
            data={[
              { value: '', label: t('assessment.detail.allTypes') },
              ...data.skill_types.map((type) => ({ value: type, label: type })),
            ]}
            value={skillType ?? ''}
            allowDeselect={false}
            onChange={(value) => setParams(value ? { skill_type: value } : {}, { replace: true })}
            size="xs"
          />
        }
      >
        <SkillChart skills={data.skills} />
      </Section>
      <Section
        title={
          perspective === 'own'
            ? t('assessment.detail.distribution')
            : t('assessment.detail.distributionOther')
        }
      >
        <HistogramSection analysis={data} perspective={perspective} />
      </Section>
      <Section title={t('assessment.detail.trend')}>
        <TrendChart points={trendPoints(data)} perspective={perspective} />
      </Section>
      <Section title={t('assessment.feedback.title')}>
        <FeedbackSection courseId={course.id} userId={data.user.id} canManage={canManage} />
      </Section>
      <Section title={t('assessment.workshops.heading')}>
        <WorkshopsPanel courseId={course.id} userId={data.user.id} canManage={canManage} />
      </Section>
    </Stack>
  );
}
