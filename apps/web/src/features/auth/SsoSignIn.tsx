import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconInfoCircle } from '@tabler/icons-react';
import type { PublicIdentityProvider, SsoError } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { providerName, ssoStartUrl } from './sso.ts';

/**
 * One button per university sign-in. Each is a link: the browser leaves for the server, which sends it
 * on to the university, so a middle click or a new tab works as well.
 */
export function SsoProviderButtons({
  providers,
  next,
}: {
  providers: readonly PublicIdentityProvider[];
  next: string | null;
}) {
  if (providers.length === 0) return null;
  return (
    <Stack gap="xs">
      {providers.map((provider) => (
        <SsoProviderButton key={provider.slug} provider={provider} next={next} />
      ))}
    </Stack>
  );
}

function SsoProviderButton({ provider, next }: { provider: PublicIdentityProvider; next: string | null }) {
  const { t, i18n } = useTranslation();
  const hintId = useId();
  return (
    <div>
      <Button
        component="a"
        href={ssoStartUrl(provider.slug, next)}
        variant="default"
        fullWidth
        leftSection={<IconBuildingBank size={18} aria-hidden />}
        aria-describedby={provider.email_domain ? hintId : undefined}
        // A long name wraps; the button then grows, and its content stays in the middle (Mantine's
        // inner box fills a fixed height only, which left one line 6 px above the centre).
        styles={{
          root: { display: 'flex', alignItems: 'center' },
          inner: { flex: 1 },
          label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.35 },
        }}
        h="auto"
        mih={40}
        py={6}
      >
        {t('auth.sso.signInWith', { name: providerName(provider, i18n.language) })}
      </Button>
      {provider.email_domain ? (
        <Text id={hintId} size="xs" c="dimmed" ta="center" mt={4}>
          {t('auth.sso.domainHint', { domain: provider.email_domain })}
        </Text>
      ) : null}
    </div>
  );
}

/** Why a university sign-in came back to the login page, as a sentence the person can act on. */
export function SsoErrorAlert({ code }: { code: SsoError | 'unknown' }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} title={t('auth.sso.errorTitle')} role="alert">
      <Text size="sm">{t(`auth.sso.errors.${code}`)}</Text>
    </Alert>
  );
}

/**
 * For an address at a domain whose people sign in through their university: the password form gives way
 * to a note and that university's button.
 */
export function PasswordHiddenNote({
  domain,
  providers,
  next,
}: {
  domain: string;
  providers: readonly PublicIdentityProvider[];
  next: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="blue" icon={<IconInfoCircle aria-hidden />} role="status">
        <Text size="sm">{t('auth.sso.passwordHidden', { domain })}</Text>
      </Alert>
      <SsoProviderButtons providers={providers} next={next} />
    </Stack>
  );
}
