import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { verifyEmail } from './registration.api.ts';
import { ResendVerificationForm } from './ResendVerificationForm.tsx';
import { AuthCard } from './AuthCard.tsx';

type Failure = 'alreadyVerified' | 'expired' | 'invalid' | 'failed';

function failureOf(error: unknown): Failure {
  if (!isApiError(error, 400)) return 'failed';
  if (error.body.code === 'already_verified') return 'alreadyVerified';
  if (error.body.code === 'expired_key') return 'expired';
  return 'invalid';
}

/**
 * The link of a verification e-mail lands here with `?key=`. Verifying is a query keyed by the key, so
 * opening the page (or React running an effect twice) sends it once.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const key = searchParams.get('key') ?? '';
  const verification = useQuery({
    queryKey: ['verify-email', key],
    queryFn: () => verifyEmail({ key }),
    enabled: key !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const failure: Failure | null =
    key === '' ? 'invalid' : verification.isError ? failureOf(verification.error) : null;

  return (
    <AuthCard title={t('routes.verifyEmail')} width={460}>
      {verification.isSuccess ? (
        <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title={t('auth.verifyEmail.doneTitle')}>
          <Text size="sm">{t('auth.verifyEmail.done')}</Text>
        </Alert>
      ) : failure === 'alreadyVerified' ? (
        <Alert color="blue" title={t('auth.verifyEmail.alreadyVerifiedTitle')}>
          <Text size="sm">{t('auth.verifyEmail.alreadyVerified')}</Text>
        </Alert>
      ) : failure ? (
        <>
          <Alert color="red" role="alert" title={t(`auth.verifyEmail.${failure}Title`)}>
            <Text size="sm">{t(`auth.verifyEmail.${failure}`)}</Text>
          </Alert>
          <ResendVerificationForm />
        </>
      ) : (
        <Stack align="center" gap="xs" aria-busy="true">
          <Loader size="sm" />
          <Text size="sm">{t('auth.verifyEmail.checking')}</Text>
        </Stack>
      )}
      {verification.isSuccess || failure === 'alreadyVerified' ? (
        <Button component={Link} to={pathTo('Login')}>
          {t('auth.verifyEmail.signIn')}
        </Button>
      ) : (
        <Anchor component={Link} to={pathTo('Login')} size="sm">
          {t('auth.setPassword.backToLogin')}
        </Anchor>
      )}
    </AuthCard>
  );
}
