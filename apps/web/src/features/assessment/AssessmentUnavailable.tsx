import { Anchor, EmptyState, Stack, Title } from '@mantine/core';
import { IconChartBarOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { pathTo, ROUTES } from '../../routes/route-table.ts';
import { useSession } from '../auth/session.ts';
import { Section } from '../../ui/Section.tsx';
import { SkillsPanel } from './SkillsPanel.tsx';

/**
 * The guard's answer when the course has no assessment analysis: the pages stay closed. Editors of a
 * course with analysis switched on still need somewhere to tag the first skill, so they get the skills
 * here; the table and the charts wait until a skill is tagged on an item.
 */
export function AssessmentUnavailable({
  route,
  canManage,
}: {
  route: 'Assessment' | 'AssessmentDetail';
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const description = !canManage
    ? t('assessment.unavailable.description')
    : course.has_assessment
      ? t('assessment.unavailable.tagFirst')
      : t('assessment.unavailable.switchedOff');
  return (
    <Stack gap="lg">
      <Title order={1}>{t(ROUTES[route].titleKey)}</Title>
      <EmptyState
        icon={<IconChartBarOff size={32} aria-hidden />}
        withIndicatorBackground
        title={t('assessment.unavailable.title')}
        description={description}
        py="xl"
      />
      {canManage && !course.has_assessment && isStaff ? (
        <Anchor component={Link} to={pathTo('Settings', { course_id: course.id })}>
          {t('assessment.unavailable.settingsLink')}
        </Anchor>
      ) : null}
      {canManage && course.has_assessment ? (
        <Section title={t('assessment.tabs.skills')}>
          <SkillsPanel courseId={course.id} />
        </Section>
      ) : null}
    </Stack>
  );
}
