import { Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { IconClockPlus, IconHistory, IconList } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { useSession } from '../auth/session.ts';
import { canManageCourse } from '../courses/course-access.ts';
import { ExtensionAuditLog } from './ExtensionAuditLog.tsx';
import { ExtensionTable } from './ExtensionTable.tsx';
import { GrantExtensionDialog } from './GrantExtensionDialog.tsx';
import type { GrantPrefill } from './extension-form.ts';

/**
 * Per-student extensions (issue 21 §2): the course's extensions with each student's dates against the
 * course's, granting, changing and revoking them, and the audit log (`?tab=audit`, `&page=`). Editors of
 * the course and staff; everyone else gets NotFound, as on the gradebook.
 */
export function ExtensionsPage() {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const [searchParams, setSearchParams] = useSearchParams();
  const [prefill, setPrefill] = useState<GrantPrefill | null>(null);

  if (!canManageCourse(course, isStaff)) return <NotFoundPage />;
  const tab = searchParams.get('tab') === 'audit' ? 'audit' : 'list';
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.extensions')}</Title>
        <Button
          leftSection={<IconClockPlus size={18} aria-hidden />}
          onClick={() => setPrefill({ kind: 'assignment' })}
        >
          {t('extensions.grant')}
        </Button>
      </Group>
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value === 'audit' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="list" leftSection={<IconList size={16} aria-hidden />}>
            {t('extensions.tabs.list')}
          </Tabs.Tab>
          <Tabs.Tab value="audit" leftSection={<IconHistory size={16} aria-hidden />}>
            {t('extensions.tabs.audit')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="list" pt="lg">
          <ExtensionTable courseId={course.id} onChange={setPrefill} />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="lg">
          <ExtensionAuditLog
            courseId={course.id}
            page={page}
            onPage={(next) =>
              setSearchParams(next > 1 ? { tab: 'audit', page: String(next) } : { tab: 'audit' })
            }
          />
        </Tabs.Panel>
      </Tabs>
      <GrantExtensionDialog courseId={course.id} prefill={prefill} onClose={() => setPrefill(null)} />
    </Stack>
  );
}
