import {
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconLink, IconUnlink } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkedIdentity } from '@kadai/contracts';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { errorMessage } from '../../ui/errors.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { providerName } from '../auth/sso.ts';
import {
  identityKeys,
  linkIdentity,
  linkedIdentitiesQuery,
  providersQuery,
  unlinkIdentity,
} from './identity.api.ts';

/**
 * A person's university sign-ins (SAML, OpenID Connect) on their profile: the person sees theirs, staff
 * see everyone's and link or unlink them (a student who shows their card, say).
 */
export function LinkedIdentitiesPanel({ userId, canManage }: { userId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const identities = useQuery(linkedIdentitiesQuery(userId));
  const headingId = useId();
  // A server without institutional sign-in has no such list: nothing to show then.
  if (isApiError(identities.error, 404)) return null;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('identity.linked.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {canManage ? t('identity.linked.staffHelp') : t('identity.linked.help')}
        </Text>
        {identities.isError ? (
          <ErrorState error={identities.error} onRetry={() => void identities.refetch()} />
        ) : !identities.data ? (
          <Skeleton height={60} aria-busy="true" />
        ) : identities.data.results.length === 0 ? (
          <Text size="sm">{t('identity.linked.none')}</Text>
        ) : (
          <Stack gap="xs">
            {identities.data.results.map((identity) => (
              <IdentityCard key={identity.id} identity={identity} userId={userId} canManage={canManage} />
            ))}
          </Stack>
        )}
        {canManage ? <LinkIdentityForm userId={userId} /> : null}
      </Stack>
    </Paper>
  );
}

function IdentityCard({
  identity,
  userId,
  canManage,
}: {
  identity: LinkedIdentity;
  userId: number;
  canManage: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const queryClient = useQueryClient();
  const name = providerName(identity.provider, i18n.language);
  const unlink = useMutation({
    mutationFn: () => unlinkIdentity(userId, identity.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: identityKeys.linked(userId) });
      notifySuccess(t('identity.linked.unlinked', { name }));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('identity.linked.unlinkFailed') }),
  });
  const confirmUnlink = () =>
    modals.openConfirmModal({
      title: t('identity.linked.unlinkTitle', { name }),
      children: <Text size="sm">{t('identity.linked.unlinkNote', { name })}</Text>,
      labels: { confirm: t('identity.linked.unlink'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => unlink.mutate(),
    });
  const fact = (label: string, value: string) => (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      <Text span c="dimmed" size="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
  return (
    <Paper withBorder p="sm" radius="sm">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Text fw={600} size="sm">
          {name}
        </Text>
        {canManage ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconUnlink size={14} aria-hidden />}
            onClick={confirmUnlink}
            loading={unlink.isPending}
            aria-label={t('identity.linked.unlinkLabel', { name, id: identity.external_id })}
          >
            {t('identity.linked.unlink')}
          </Button>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} mt={4}>
        {fact(t('identity.linked.externalId'), identity.external_id)}
        {fact(t('identity.linked.institutionalId'), identity.institutional_id ?? '—')}
        {fact(t('identity.linked.email'), identity.email ?? '—')}
        {fact(
          t('identity.linked.lastLogin'),
          identity.last_login_at ? format.dateTime(identity.last_login_at) : t('profile.never'),
        )}
      </SimpleGrid>
    </Paper>
  );
}

interface LinkForm {
  provider_id: string;
  external_id: string;
  institutional_id: string;
}

function LinkIdentityForm({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const providers = useQuery(providersQuery());
  const form = useForm<LinkForm>({
    defaultValues: { provider_id: '', external_id: '', institutional_id: '' },
  });
  const link = useMutation({
    mutationFn: (values: LinkForm) =>
      linkIdentity(userId, {
        provider_id: Number(values.provider_id),
        external_id: values.external_id.trim(),
        institutional_id: values.institutional_id.trim() || undefined,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: identityKeys.linked(userId) });
      form.reset();
      notifySuccess(t('identity.linked.linked'));
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['provider_id', 'external_id', 'institutional_id'])) {
        notifyError(errorMessage(error, t), { title: t('identity.linked.linkFailed') });
      }
    },
  });
  const options = (providers.data?.results ?? []).map((provider) => ({
    value: String(provider.id),
    label: providerName(provider, i18n.language),
  }));
  const errors = form.formState.errors;
  const required = (value: string) => value.trim() !== '' || t('identity.form.required');
  return (
    <form noValidate onSubmit={form.handleSubmit((values) => link.mutate(values))}>
      <Stack gap="sm" mt="xs">
        <Title order={3} size="h5">
          {t('identity.linked.linkTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Controller
            control={form.control}
            name="provider_id"
            rules={{ validate: required }}
            render={({ field }) => (
              <Select
                label={t('identity.linked.provider')}
                data={options}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                required
                error={errors.provider_id?.message}
                allowDeselect={false}
              />
            )}
          />
          <TextInput
            label={t('identity.linked.externalId')}
            description={t('identity.linked.externalIdHelp')}
            required
            error={errors.external_id?.message}
            {...form.register('external_id', { validate: required })}
          />
          <TextInput
            label={t('identity.linked.institutionalId')}
            description={t('identity.linked.optional')}
            error={errors.institutional_id?.message}
            {...form.register('institutional_id')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            type="submit"
            variant="light"
            leftSection={<IconLink size={16} aria-hidden />}
            loading={link.isPending}
          >
            {t('identity.linked.link')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
