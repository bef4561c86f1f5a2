import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { getSsoLinkInfo } from './auth.api.ts';
import { AuthCard } from './AuthCard.tsx';
import { useOneTimeParams } from './one-time-params.ts';
import { signInByLinking, signInWithSsoCode, takeSsoTarget } from './sign-in.ts';
import { providerName } from './sso.ts';

const ONE_TIME_PARAMS = ['code', 'link'];

/**
 * Where a university sign-in lands (`/login/sso`): `?code=` is exchanged for a session at once;
 * `?link=` asks for the password of the existing account with that e-mail address, once, to link them.
 */
export function SsoLoginPage() {
  const params = useOneTimeParams(ONE_TIME_PARAMS);
  const code = params.get('code');
  const link = params.get('link');
  if (code) return <SsoExchange code={code} />;
  if (link) return <SsoLinkForm code={link} />;
  return <SsoExpired />;
}

const EXPIRED = `${pathTo('Login')}?sso_error=expired`;

function SsoExchange({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    // The code works once: a second render of the effect (development's strict mode) must not spend it.
    if (started.current) return;
    started.current = true;
    signInWithSsoCode(code).then(
      (next) => void navigate(takeSsoTarget(next), { replace: true }),
      (error: unknown) => {
        console.warn('Institutional sign-in failed', error);
        void navigate(EXPIRED, { replace: true });
      },
    );
  }, [code, navigate]);
  return (
    <AuthCard title={t('auth.sso.signingInTitle')} width={420}>
      <Center>
        <Loader aria-hidden />
      </Center>
      <Text size="sm" ta="center" role="status">
        {t('auth.sso.signingIn')}
      </Text>
    </AuthCard>
  );
}

function SsoExpired() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.sso.linkTitle')} width={420}>
      <Alert color="orange" icon={<IconAlertCircle aria-hidden />} role="alert">
        <Text size="sm">{t('auth.sso.errors.expired')}</Text>
      </Alert>
      <Button component={Link} to={pathTo('Login')}>
        {t('auth.sso.backToLogin')}
      </Button>
    </AuthCard>
  );
}

function SsoLinkForm({ code }: { code: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const info = useQuery({
    queryKey: ['sso', 'link', code],
    queryFn: () => getSsoLinkInfo(code),
    retry: false,
    staleTime: Infinity,
  });
  const form = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const [hasExpired, setExpired] = useState(false);
  const link = useMutation({
    mutationFn: (password: string) => signInByLinking(code, password),
    onSuccess: (next) => void navigate(takeSsoTarget(next), { replace: true }),
    onError: (error) => {
      if (isApiError(error, 401)) {
        form.setError('password', { type: 'server', message: t('auth.sso.wrongPassword') });
      } else if (isApiError(error, 404) || isApiError(error, 410)) {
        setExpired(true);
      } else if (isApiError(error, 429) && error.retryAfterSeconds !== null) {
        notifyError(t('auth.login.throttled', { seconds: error.retryAfterSeconds }));
      } else {
        notifyError(errorMessage(error, t), { title: t('auth.sso.linkFailed') });
      }
    },
  });

  if (hasExpired || isApiError(info.error, 404) || isApiError(info.error, 410)) return <SsoExpired />;
  if (info.isError) {
    return (
      <AuthCard title={t('auth.sso.linkTitle')} width={420}>
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          <Text size="sm">{errorMessage(info.error, t)}</Text>
        </Alert>
        <Button variant="light" onClick={() => void info.refetch()}>
          {t('common.retry')}
        </Button>
      </AuthCard>
    );
  }
  if (!info.data) {
    return (
      <AuthCard title={t('auth.sso.linkTitle')} width={420}>
        <Center>
          <Loader aria-label={t('common.loading')} />
        </Center>
      </AuthCard>
    );
  }
  const errors = form.formState.errors;
  if (!info.data.has_password) {
    return (
      <AuthCard title={t('auth.sso.linkTitle')} width={420}>
        <Alert color="yellow" icon={<IconAlertCircle aria-hidden />} role="status">
          <Text size="sm">
            {t('auth.sso.linkNoPassword', {
              email: info.data.email,
              provider: providerName(info.data.provider, i18n.language),
            })}
          </Text>
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.sso.linkTitle')} width={420}>
      <Text size="sm">
        {t('auth.sso.linkExplanation', {
          email: info.data.email,
          provider: providerName(info.data.provider, i18n.language),
        })}
      </Text>
      <form noValidate onSubmit={form.handleSubmit((values) => link.mutate(values.password))}>
        <Stack gap="sm">
          {/* The account's address, for password managers to pick the right password. */}
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={info.data.email}
            readOnly
            hidden
          />
          <PasswordField
            label={t('auth.login.password')}
            autoComplete="current-password"
            leftSection={<IconLock size={16} aria-hidden />}
            required
            error={errors.password?.message}
            {...form.register('password', { required: t('validation.passwordRequired') })}
          />
          <Button type="submit" fullWidth mt="xs" loading={link.isPending}>
            {t('auth.sso.linkSubmit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to={pathTo('Login')} size="sm">
        {t('auth.sso.backToLogin')}
      </Anchor>
    </AuthCard>
  );
}
