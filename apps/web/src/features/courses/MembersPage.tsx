import { Stack, Tabs, Title } from '@mantine/core';
import { IconUserShield, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from './useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { useSession } from '../auth/session.ts';
import { LmsPanel } from '../lti/LmsPanel.tsx';
import { MembersPanel } from './MembersPanel.tsx';
import { canManageCourse } from './course-access.ts';

/**
 * The course's students and editors (`?tab=editors`). Editors of the course add and remove students
 * and read the editor list; staff change both. Everyone else gets NotFound, as on other editor pages.
 * Below them, the LMS courses linked to this one (issue 38): here rather than in Settings, which the
 * side rail shows to staff only, while the course's editors are the ones who sync its roster from the
 * LMS (the students above change with it) and watch its grades go to the LMS's gradebook.
 */
export function MembersPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const [searchParams, setSearchParams] = useSearchParams();

  if (!canManageCourse(course, isStaff)) return <NotFoundPage />;
  const tab = searchParams.get('tab') === 'editors' ? 'editors' : 'students';

  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.members')}</Title>
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value === 'editors' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="students" leftSection={<IconUsers size={16} aria-hidden />}>
            {t('members.tabs.students')}
          </Tabs.Tab>
          <Tabs.Tab value="editors" leftSection={<IconUserShield size={16} aria-hidden />}>
            {t('members.tabs.editors')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="students" pt="lg">
          <MembersPanel courseId={course.id} kind="student" canChange />
        </Tabs.Panel>
        <Tabs.Panel value="editors" pt="lg">
          {/* The API lets editors read the editor list; only staff change it. */}
          <MembersPanel courseId={course.id} kind="editor" canChange={isStaff} />
        </Tabs.Panel>
      </Tabs>
      <LmsPanel courseId={course.id} />
    </Stack>
  );
}
