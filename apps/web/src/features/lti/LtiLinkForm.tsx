import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { notifyError } from '../../ui/notify.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { AuthCard } from '../auth/AuthCard.tsx';
import { getLtiLinkInfo } from './lti-launch.api.ts';
import { LtiProblem } from './LtiProblem.tsx';
import { signInByLtiLinking } from './lti-sign-in.ts';

const isGone = (error: unknown) => isApiError(error, 404) || isApiError(error, 410);

/**
 * A first launch of someone whose e-mail address already has a Kadai account: its password, once,
 * links the LMS account to it (as `/login/sso?link=` does for a university sign-in). A plain form, not
 * react-hook-form: this page is the first an LMS loads.
 */
export function LtiLinkForm({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useQuery({
    queryKey: ['lti', 'link', code],
    queryFn: () => getLtiLinkInfo(code),
    retry: false,
    staleTime: Infinity,
  });
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [hasExpired, setExpired] = useState(false);
  const link = useMutation({
    mutationFn: (value: string) => signInByLtiLinking(code, value),
    onMutate: () => setFieldError(null),
    onSuccess: (target) => void navigate(target, { replace: true }),
    onError: (error) => {
      if (isApiError(error, 401)) setFieldError(t('lti.link.wrongPassword'));
      else if (isGone(error)) setExpired(true);
      else if (isApiError(error, 429) && error.retryAfterSeconds !== null)
        notifyError(t('auth.login.throttled', { seconds: error.retryAfterSeconds }));
      else notifyError(errorMessage(error, t), { title: t('lti.link.failed') });
    },
  });

  if (hasExpired || isGone(info.error)) return <LtiProblem reason="expired" />;
  if (info.isError) {
    return (
      <AuthCard title={t('lti.link.title')} width={440}>
        <ErrorState error={info.error} onRetry={() => void info.refetch()} />
      </AuthCard>
    );
  }
  if (!info.data) {
    return (
      <AuthCard title={t('lti.link.title')} width={440}>
        <Center>
          <Loader aria-label={t('common.loading')} />
        </Center>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('lti.link.title')} width={440}>
      <Text size="sm">
        {t('lti.link.explanation', { email: info.data.email, platform: info.data.platform })}
      </Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (password === '') setFieldError(t('validation.passwordRequired'));
          else link.mutate(password);
        }}
      >
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
            name="password"
            autoComplete="current-password"
            leftSection={<IconLock size={16} aria-hidden />}
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldError}
          />
          <Button type="submit" fullWidth mt="xs" loading={link.isPending}>
            {t('lti.link.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="xs" c="dimmed">
        {t('lti.link.help')}
      </Text>
    </AuthCard>
  );
}
