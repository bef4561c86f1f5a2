import { Button, Group, Skeleton, Stack, TagsInput, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInSettings } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { identityKeys, saveSignInSettings, signInSettingsQuery } from './identity.api.ts';

/** A domain as the server keeps it: lower case, without `@` or spaces around it. */
function normalizeDomain(value: string): string {
  return value.trim().replace(/^@/, '').toLowerCase();
}

/** The e-mail domains whose people sign in through their university, never with a password. */
export function PasswordDomainsPanel() {
  const { t } = useTranslation();
  const settings = useQuery(signInSettingsQuery());
  return (
    <Section title={t('identity.passwordDomains.title')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('identity.passwordDomains.help')}
        </Text>
        {settings.isError ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        ) : !settings.data ? (
          <Skeleton height={80} aria-busy="true" />
        ) : (
          <DomainsForm key={settings.data.password_hidden_domains.join(' ')} settings={settings.data} />
        )}
      </Stack>
    </Section>
  );
}

function DomainsForm({ settings }: { settings: SignInSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [domains, setDomains] = useState(settings.password_hidden_domains);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveSignInSettings,
    onMutate: () => setFieldError(null),
    onSuccess: (saved) => {
      queryClient.setQueryData(identityKeys.settings(), saved);
      void queryClient.invalidateQueries({ queryKey: ['config'] });
      notifySuccess(t('identity.passwordDomains.saved'));
    },
    onError: (error) => {
      const message = isApiError(error, 400) ? error.firstFieldMessage('password_hidden_domains') : undefined;
      if (message !== undefined) setFieldError(message);
      else notifyError(errorMessage(error, t), { title: t('identity.saveFailed') });
    },
  });
  const isDirty = domains.join(' ') !== settings.password_hidden_domains.join(' ');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ password_hidden_domains: domains });
      }}
    >
      <Stack gap="sm">
        <TagsInput
          label={t('identity.passwordDomains.label')}
          description={t('identity.passwordDomains.inputHelp')}
          placeholder="u-example.ac.jp"
          value={domains}
          onChange={(values) => setDomains([...new Set(values.map(normalizeDomain).filter(Boolean))])}
          splitChars={[',', ' ']}
          clearable
          error={fieldError}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!isDirty}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
