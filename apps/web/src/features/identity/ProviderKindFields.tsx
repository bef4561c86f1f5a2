import {
  Accordion,
  Button,
  FileButton,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconRefresh, IconUpload } from '@tabler/icons-react';
import { ATTRIBUTE_FIELDS, SamlIdSource, type IdentityProvider } from '@kadai/contracts';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { MAX_METADATA_BYTES, type ProviderFormValues } from './provider-form.ts';

type Form = UseFormReturn<ProviderFormValues>;

/** A SAML IdP's fields: its metadata (an address or the XML) and where the stable id comes from. */
export function SamlFields({
  form,
  provider,
  onRefreshMetadata,
  isRefreshing,
}: {
  form: Form;
  provider: IdentityProvider | null;
  onRefreshMetadata: () => void;
  isRefreshing: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const source = useWatch({ control: form.control, name: 'metadata_source' });
  const errors = form.formState.errors;
  const isEdit = provider !== null;

  const readFile = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_METADATA_BYTES) {
      form.setError('metadata_xml', { type: 'size', message: t('identity.form.metadataTooLarge') });
      return;
    }
    form.clearErrors('metadata_xml');
    form.setValue('metadata_xml', await file.text(), { shouldDirty: true });
  };

  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="metadata_source"
        render={({ field }) => (
          <Radio.Group
            label={t('identity.form.metadataSource')}
            value={field.value}
            onChange={(value) => field.onChange(value === 'xml' ? 'xml' : 'url')}
          >
            <Group gap="lg" mt={4}>
              <Radio value="url" label={t('identity.form.metadataByUrl')} />
              <Radio value="xml" label={t('identity.form.metadataByXml')} />
            </Group>
          </Radio.Group>
        )}
      />
      {source === 'url' ? (
        <TextInput
          type="url"
          label={t('identity.form.metadataUrl')}
          description={t('identity.form.metadataUrlHelp')}
          required={!isEdit}
          error={errors.metadata_url?.message}
          {...form.register('metadata_url', {
            validate: (value) =>
              isEdit || form.getValues('metadata_source') !== 'url' || value.trim() !== ''
                ? true
                : t('identity.form.required'),
          })}
        />
      ) : (
        <Stack gap={4}>
          <Textarea
            label={t('identity.form.metadataXml')}
            description={isEdit ? t('identity.form.metadataXmlKeep') : t('identity.form.metadataXmlHelp')}
            autosize
            minRows={4}
            maxRows={12}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            error={errors.metadata_xml?.message}
            {...form.register('metadata_xml', {
              validate: (value) =>
                isEdit || form.getValues('metadata_source') !== 'xml' || value.trim() !== ''
                  ? true
                  : t('identity.form.required'),
            })}
          />
          <Group>
            <FileButton onChange={(file) => void readFile(file)} accept=".xml,application/xml,text/xml">
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant="default"
                  leftSection={<IconUpload size={14} aria-hidden />}
                >
                  {t('identity.form.uploadXml')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Stack>
      )}
      {provider?.saml?.metadata_url ? (
        <Group gap="sm">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={onRefreshMetadata}
            loading={isRefreshing}
          >
            {t('identity.form.refreshMetadata')}
          </Button>
          {provider.saml.metadata_fetched_at ? (
            <Text size="xs" c="dimmed">
              {t('identity.form.metadataFetchedAt', {
                date: format.dateTime(provider.saml.metadata_fetched_at),
              })}
            </Text>
          ) : null}
        </Group>
      ) : null}
      <Controller
        control={form.control}
        name="id_source"
        render={({ field }) => (
          <Radio.Group
            label={t('identity.form.idSource')}
            value={field.value}
            onChange={(value) => {
              const parsed = SamlIdSource.safeParse(value);
              if (parsed.success) field.onChange(parsed.data);
            }}
          >
            <Stack gap={6} mt={4}>
              <Radio value="attribute" label={t('identity.form.idSourceAttribute')} />
              <Radio value="persistent_nameid" label={t('identity.form.idSourceNameId')} />
            </Stack>
          </Radio.Group>
        )}
      />
    </Stack>
  );
}

/** An OpenID Connect provider's fields; the secret is write-only. */
export function OidcFields({ form, provider }: { form: Form; provider: IdentityProvider | null }) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const hasSecret = provider?.oidc?.has_client_secret === true;
  const required = (value: string) => value.trim() !== '' || t('identity.form.required');
  return (
    <Stack gap="sm">
      <TextInput
        type="url"
        label={t('identity.form.issuer')}
        description={t('identity.form.issuerHelp')}
        required
        error={errors.issuer?.message}
        {...form.register('issuer', { validate: required })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('identity.form.clientId')}
          required
          autoComplete="off"
          error={errors.client_id?.message}
          {...form.register('client_id', { validate: required })}
        />
        <PasswordField
          label={t('identity.form.clientSecret')}
          description={hasSecret ? t('identity.form.secretStored') : undefined}
          required={!hasSecret}
          autoComplete="new-password"
          error={errors.client_secret?.message}
          {...form.register('client_secret', { validate: (value) => hasSecret || required(value) })}
        />
      </SimpleGrid>
      <TextInput
        label={t('identity.form.scopes')}
        description={t('identity.form.scopesHelp')}
        error={errors.scopes?.message}
        {...form.register('scopes')}
      />
    </Stack>
  );
}

/** Which attributes or claims fill each field: an advanced part, closed unless one is set. */
export function AttributeMapFields({ form }: { form: Form }) {
  const { t } = useTranslation();
  const errors = form.formState.errors.attribute_map;
  const hasValues = ATTRIBUTE_FIELDS.some((field) => form.getValues(`attribute_map.${field}`) !== '');
  return (
    // Kept in the page while closed (display: none): the fields stay registered with the form, which an
    // unmounted (Activity-hidden) panel would detach.
    <Accordion
      variant="contained"
      defaultValue={hasValues ? 'attributes' : null}
      keepMounted
      keepMountedMode="display-none"
    >
      <Accordion.Item value="attributes">
        <Accordion.Control>{t('identity.form.attributeMap')}</Accordion.Control>
        <Accordion.Panel>
          <Text size="sm" c="dimmed" mb="sm">
            {t('identity.form.attributeMapHelp')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {ATTRIBUTE_FIELDS.map((field) => (
              <TextInput
                key={field}
                label={t(`identity.attributes.${field}`)}
                placeholder={t('identity.form.attributeDefault')}
                error={errors?.[field]?.message}
                {...form.register(`attribute_map.${field}`)}
              />
            ))}
          </SimpleGrid>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
