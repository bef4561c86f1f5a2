import { Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { LtiPlatform } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { useSession } from '../auth/session.ts';
import { DynamicRegistrationPanel } from './DynamicRegistrationPanel.tsx';
import { platformsQuery } from './lti.api.ts';
import { PlatformDialog } from './PlatformDialog.tsx';
import { PlatformTable } from './PlatformTable.tsx';
import { ToolDetailsPanel } from './ToolDetailsPanel.tsx';

/**
 * Staff: Kadai as an LTI 1.3 tool of the universities' LMSs (issue 38, docs/lti.md): the platforms
 * registered by hand or by dynamic registration, and Kadai's own details to register it there.
 */
export function LtiSettingsPage() {
  const { t } = useTranslation();
  const isStaff = useSession((s) => s.is_staff);
  if (!isStaff) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('routes.ltiSettings')}</Title>
        <Alert color="orange" icon={<IconLock aria-hidden />} title={t('lti.forbiddenTitle')} role="alert">
          <Text size="sm">{t('lti.forbidden')}</Text>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('routes.ltiSettings')}</Title>
        <Text c="dimmed" size="sm" mt={4}>
          {t('lti.help')}
        </Text>
      </div>
      <PlatformsSection />
      <DynamicRegistrationPanel />
      <ToolDetailsPanel />
    </Stack>
  );
}

/** `null`: closed; `new`: adding one; else the platform being changed. */
type Editing = null | 'new' | LtiPlatform;

function PlatformsSection() {
  const { t } = useTranslation();
  const platforms = useQuery(platformsQuery());
  const [editing, setEditing] = useState<Editing>(null);
  return (
    <Section
      title={t('lti.platforms.title')}
      actions={
        <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('lti.platforms.add')}
        </Button>
      }
    >
      {platforms.isError ? (
        <ErrorState error={platforms.error} onRetry={() => void platforms.refetch()} />
      ) : !platforms.data ? (
        <Skeleton height={160} aria-busy="true" />
      ) : platforms.data.results.length === 0 ? (
        <Paper p="md" radius="md" bg="var(--mantine-color-default-hover)">
          <Text size="sm">{t('lti.platforms.empty')}</Text>
        </Paper>
      ) : (
        <PlatformTable platforms={platforms.data.results} onEdit={setEditing} />
      )}
      {editing !== null ? (
        <PlatformDialog platform={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Section>
  );
}
