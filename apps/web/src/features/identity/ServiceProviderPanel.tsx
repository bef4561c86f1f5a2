import { Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../ui/CopyField.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Section } from '../../ui/Section.tsx';
import { serviceProviderQuery } from './identity.api.ts';

/** This server's own details, to register with GakuNin or the university's IdP. */
export function ServiceProviderPanel() {
  const { t } = useTranslation();
  const info = useQuery(serviceProviderQuery());
  return (
    <Section title={t('identity.sp.title')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('identity.sp.help')}
        </Text>
        {info.isError ? (
          <ErrorState error={info.error} onRetry={() => void info.refetch()} />
        ) : !info.data ? (
          <Skeleton height={200} aria-busy="true" />
        ) : (
          <>
            <CopyField label={t('identity.sp.entityId')} value={info.data.saml_entity_id} />
            <CopyField label={t('identity.sp.metadataUrl')} value={info.data.saml_metadata_url} />
            <CopyField label={t('identity.sp.acsUrl')} value={info.data.saml_acs_url} />
            <CopyField label={t('identity.sp.sloUrl')} value={info.data.saml_slo_url} />
            <CopyField label={t('identity.sp.oidcRedirectUri')} value={info.data.oidc_redirect_uri} />
          </>
        )}
      </Stack>
    </Section>
  );
}
