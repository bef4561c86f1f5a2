import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../auth/AuthCard.tsx';
import type { LtiReason } from './lti-sign-in.ts';

/** Why the launch did not work, and what to do, in plain words. */
export function LtiProblem({ reason, detail }: { reason: LtiReason; detail?: string }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('lti.launch.problemTitle')} width={460}>
      <Alert color="orange" icon={<IconAlertCircle aria-hidden />} role="alert">
        <Text size="sm">{t(`lti.errors.${reason}`)}</Text>
        {detail ? (
          <Text size="sm" mt="xs">
            {detail}
          </Text>
        ) : null}
      </Alert>
    </AuthCard>
  );
}
