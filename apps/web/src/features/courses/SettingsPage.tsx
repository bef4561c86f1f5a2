import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconLock, IconSettings, IconUserShield, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../../app/layout/useCourse.ts';
import { useSession } from '../auth/session.ts';
import { CourseDetailsForm } from './CourseDetailsForm.tsx';
import { DeleteCourseSection } from './DeleteCourseSection.tsx';
import { MembersPanel } from './MembersPanel.tsx';

const TABS = ['general', 'editors', 'students'] as const;
type SettingsTab = (typeof TABS)[number];

/**
 * Staff manage everything; an editor of the course (who reaches the page by URL, the menu shows it to
 * staff only) edits the course and its students; anyone else is told they may not.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const isEditor = course.my_role === 'editor' || course.my_role === 'staff';
  const [searchParams, setSearchParams] = useSearchParams();

  if (!isStaff && !isEditor) {
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

  const available: readonly SettingsTab[] = isStaff ? TABS : ['general', 'students'];
  const requested = available.find((tab) => tab === searchParams.get('tab'));
  const tab = requested ?? 'general';

  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.settings')}</Title>
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(value && value !== 'general' ? { tab: value } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="general" leftSection={<IconSettings size={16} aria-hidden />}>
            {t('settings.tabs.general')}
          </Tabs.Tab>
          {isStaff ? (
            <Tabs.Tab value="editors" leftSection={<IconUserShield size={16} aria-hidden />}>
              {t('settings.tabs.editors')}
            </Tabs.Tab>
          ) : null}
          <Tabs.Tab value="students" leftSection={<IconUsers size={16} aria-hidden />}>
            {t('settings.tabs.students')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="lg">
          <Stack gap="xl">
            <CourseDetailsForm key={course.updated_at} course={course} />
            {isStaff ? <DeleteCourseSection course={course} /> : null}
          </Stack>
        </Tabs.Panel>
        {isStaff ? (
          <Tabs.Panel value="editors" pt="lg">
            <MembersPanel courseId={course.id} kind="editor" />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="students" pt="lg">
          <MembersPanel courseId={course.id} kind="student" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
