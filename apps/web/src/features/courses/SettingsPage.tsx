import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useCourse } from './useCourse.ts';
import { pathTo } from '../../routes/route-table.ts';
import { useSession } from '../auth/session.ts';
import { CourseNotificationsSection } from '../notifications/CourseNotificationsSection.tsx';
import { CourseDetailsForm } from './CourseDetailsForm.tsx';
import { DeleteCourseSection } from './DeleteCourseSection.tsx';
import { canManageCourse } from './course-access.ts';

/**
 * The course's details, whether its editors hear of new members, and for staff deleting it. The menu
 * shows the page to staff only (spec); an editor of the course who opens the URL may edit the details
 * too (the API allows it); anyone else is told they may not. Editors and students are on the Members
 * page: the old `?tab=students` and `?tab=editors` links lead there.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const [searchParams] = useSearchParams();

  if (!canManageCourse(course, isStaff)) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('routes.settings')}</Title>
        <Alert
          color="orange"
          icon={<IconLock aria-hidden />}
          title={t('settings.forbiddenTitle')}
          role="alert"
        >
          <Text size="sm">{t('settings.forbidden')}</Text>
        </Alert>
      </Stack>
    );
  }

  const oldTab = searchParams.get('tab');
  const membersPath = pathTo('Members', { course_id: course.id });
  if (oldTab === 'students') return <Navigate to={membersPath} replace />;
  if (oldTab === 'editors') return <Navigate to={`${membersPath}?tab=editors`} replace />;

  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.settings')}</Title>
      <Text size="sm">
        {t('settings.membersMoved')}{' '}
        <Anchor component={Link} to={membersPath} underline="always">
          {t('routes.members')}
        </Anchor>
      </Text>
      <Stack gap="xl">
        <CourseDetailsForm key={course.updated_at} course={course} />
        <CourseNotificationsSection courseId={course.id} />
        {isStaff ? <DeleteCourseSection course={course} /> : null}
      </Stack>
    </Stack>
  );
}
