import { Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { IdentityProvider } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { useSession } from '../auth/session.ts';
import { providersQuery } from './identity.api.ts';
import { PasswordDomainsPanel } from './PasswordDomainsPanel.tsx';
import { ProviderDialog } from './ProviderDialog.tsx';
import { ProviderTable } from './ProviderTable.tsx';
import { ServiceProviderPanel } from './ServiceProviderPanel.tsx';

/**
 * Staff: sign-in through the universities' identity providers (SAML 2.0, OpenID Connect): this
 * server's details to register there, the providers, and who may no longer use a password.
 */
export function SignInSettingsPage() {
  const { t } = useTranslation();
  const isStaff = useSession((s) => s.is_staff);
  if (!isStaff) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('routes.signInSettings')}</Title>
        <Alert
          color="orange"
          icon={<IconLock aria-hidden />}
          title={t('identity.forbiddenTitle')}
          role="alert"
        >
          <Text size="sm">{t('identity.forbidden')}</Text>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('routes.signInSettings')}</Title>
        <Text c="dimmed" size="sm" mt={4}>
          {t('identity.help')}
        </Text>
      </div>
      <ProvidersSection />
      <ServiceProviderPanel />
      <PasswordDomainsPanel />
    </Stack>
  );
}

/** `null`: closed; `new`: adding one; else the provider being changed. */
type Editing = null | 'new' | IdentityProvider;

function ProvidersSection() {
  const { t } = useTranslation();
  const providers = useQuery(providersQuery());
  const [editing, setEditing] = useState<Editing>(null);
  return (
    <Section
      title={t('identity.providersTitle')}
      actions={
        <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('identity.add')}
        </Button>
      }
    >
      {providers.isError ? (
        <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />
      ) : !providers.data ? (
        <Skeleton height={160} aria-busy="true" />
      ) : providers.data.results.length === 0 ? (
        <Paper p="md" radius="md" bg="var(--mantine-color-default-hover)">
          <Text size="sm">{t('identity.empty')}</Text>
        </Paper>
      ) : (
        <ProviderTable providers={providers.data.results} onEdit={setEditing} />
      )}
      {editing !== null ? (
        <ProviderDialog provider={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Section>
  );
}
