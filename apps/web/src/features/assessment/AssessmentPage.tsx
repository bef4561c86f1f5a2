import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { ResultsTable } from './ResultsTable.tsx';
import { SkillsPanel } from './SkillsPanel.tsx';
import { WorkshopsPanel } from './WorkshopsPanel.tsx';

const TABS = ['results', 'skills', 'workshops'] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: string | null): Tab {
  return TABS.find((tab) => tab === value) ?? 'results';
}

/**
 * Assessment (staff and the course's editors; the guard sends everyone else to their own detail): the
 * results of every student, the skills they are measured on, and the workshops. The tab is in the URL.
 */
export function AssessmentPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));

  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.assessment')}</Title>
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'results' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`assessment.tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="results">
          <ResultsTable courseId={course.id} />
        </Tabs.Panel>
        <Tabs.Panel value="skills">
          <SkillsPanel courseId={course.id} />
        </Tabs.Panel>
        <Tabs.Panel value="workshops">
          <WorkshopsPanel courseId={course.id} userId={null} canManage />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
