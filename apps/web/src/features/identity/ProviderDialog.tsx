import { Alert, Button, Group, Modal, Radio, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IdpSlug, type IdentityProvider, type IdpKind } from '@kadai/contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/client.ts';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { providerName } from '../auth/sso.ts';
import { applyFieldErrors, schemaRule } from '../../ui/form.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { createProvider, identityKeys, updateProvider } from './identity.api.ts';
import {
  PROVIDER_FORM_FIELDS,
  emptyProviderForm,
  providerToForm,
  toCreateBody,
  toPatchBody,
  type ProviderFormValues,
} from './provider-form.ts';
import { AttributeMapFields, OidcFields, SamlFields } from './ProviderKindFields.tsx';

/**
 * What went wrong, for the alert at the top of the dialog: the server's own words when it could not
 * reach the metadata address or the issuer (502: they name the address and the reason).
 */
function failureText(error: unknown, t: TFunction): string {
  if (isApiError(error, 502)) return error.body.detail;
  return errorMessage(error, t);
}

/** Adds a provider (`provider` null) or changes one; the form of its kind. */
export function ProviderDialog({
  provider,
  onClose,
}: {
  provider: IdentityProvider | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<ProviderFormValues>({
    defaultValues: provider ? providerToForm(provider) : emptyProviderForm(),
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const [failure, setFailure] = useState<string | null>(null);
  const [current, setCurrent] = useState(provider);

  const saved = (result: IdentityProvider) => {
    void queryClient.invalidateQueries({ queryKey: identityKeys.providers() });
    // The login page's buttons come from the public configuration.
    void queryClient.invalidateQueries({ queryKey: ['config'] });
    return result;
  };

  const save = useMutation({
    mutationFn: (values: ProviderFormValues) =>
      current
        ? updateProvider(current.id, toPatchBody(values, current))
        : createProvider(toCreateBody(values)),
    onMutate: () => setFailure(null),
    onSuccess: (result) => {
      saved(result);
      notifySuccess(
        t(current ? 'identity.saved' : 'identity.created', { name: providerName(result, i18n.language) }),
      );
      onClose();
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, PROVIDER_FORM_FIELDS)) setFailure(failureText(error, t));
    },
  });

  const refresh = useMutation({
    mutationFn: (id: number) => updateProvider(id, { refresh_metadata: true }),
    onMutate: () => setFailure(null),
    onSuccess: (result) => {
      setCurrent(saved(result));
      notifySuccess(t('identity.form.metadataRefreshed'));
    },
    onError: (error) => setFailure(failureText(error, t)),
  });

  const errors = form.formState.errors;
  const required = (value: string) => value.trim() !== '' || t('identity.form.required');
  const title = current
    ? t('identity.form.editTitle', { name: providerName(current, i18n.language) })
    : t('identity.form.createTitle');
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={title}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <Stack gap="md">
          {failure ? (
            <Alert
              color="red"
              icon={<IconAlertCircle aria-hidden />}
              title={t('identity.form.failed')}
              role="alert"
            >
              {failure}
            </Alert>
          ) : null}
          {current ? null : (
            <Controller
              control={form.control}
              name="kind"
              render={({ field }) => (
                <Radio.Group
                  label={t('identity.form.kind')}
                  value={field.value}
                  onChange={(value) => field.onChange(value === 'oidc' ? 'oidc' : ('saml' satisfies IdpKind))}
                >
                  <Group gap="lg" mt={4}>
                    <Radio value="saml" label={t('identity.kind.saml')} />
                    <Radio value="oidc" label={t('identity.kind.oidc')} />
                  </Group>
                </Radio.Group>
              )}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('identity.form.nameJa')}
              lang="ja"
              required
              error={errors.name_ja?.message}
              {...form.register('name_ja', { validate: required })}
            />
            <TextInput
              label={t('identity.form.nameEn')}
              lang="en"
              required
              error={errors.name_en?.message}
              {...form.register('name_en', { validate: required })}
            />
            <TextInput
              label={t('identity.form.slug')}
              description={t('identity.form.slugHelp')}
              required={!current}
              readOnly={current !== null}
              error={errors.slug?.message}
              {...form.register('slug', {
                validate: current ? undefined : schemaRule(IdpSlug, t('identity.form.slugInvalid')),
              })}
            />
            <TextInput
              label={t('identity.form.emailDomain')}
              description={t('identity.form.emailDomainHelp')}
              placeholder="u-example.ac.jp"
              error={errors.email_domain?.message}
              {...form.register('email_domain')}
            />
          </SimpleGrid>
          <Group gap="xl">
            <BooleanField control={form.control} name="enabled" label={t('identity.form.enabled')} />
            <BooleanField
              control={form.control}
              name="allow_create"
              label={t('identity.form.allowCreate')}
              description={t('identity.form.allowCreateHelp')}
            />
          </Group>
          <Title order={3} size="h5">
            {t(kind === 'oidc' ? 'identity.kind.oidc' : 'identity.kind.saml')}
          </Title>
          {kind === 'oidc' ? (
            <OidcFields form={form} provider={current} />
          ) : (
            <SamlFields
              form={form}
              provider={current}
              onRefreshMetadata={() => current && refresh.mutate(current.id)}
              isRefreshing={refresh.isPending}
            />
          )}
          <AttributeMapFields form={form} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {current ? t('common.save') : t('identity.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
