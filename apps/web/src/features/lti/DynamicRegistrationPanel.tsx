import { Button, Stack, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { createRegistrationLink } from './lti.api.ts';

/**
 * LTI Advantage dynamic registration: a one-time address for the LMS's administrator, who pastes it
 * into the LMS; the LMS then registers itself with Kadai (a platform of source "dynamic").
 */
export function DynamicRegistrationPanel() {
  const { t } = useTranslation();
  const format = useFormatters();
  const create = useMutation({
    mutationFn: createRegistrationLink,
    onError: (error) => notifyError(errorMessage(error, t), { title: t('lti.registration.failed') }),
  });
  return (
    <Section
      title={t('lti.registration.title')}
      actions={
        <Button
          size="sm"
          variant="light"
          leftSection={<IconLink size={16} aria-hidden />}
          onClick={() => create.mutate()}
          loading={create.isPending}
        >
          {create.data ? t('lti.registration.createAnother') : t('lti.registration.create')}
        </Button>
      }
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('lti.registration.help')}
        </Text>
        {create.data ? (
          <Stack gap={4}>
            <CopyField label={t('lti.registration.url')} value={create.data.url} />
            <Text size="sm" role="status">
              {t('lti.registration.expires', { date: format.dateTime(create.data.expires_at) })}
            </Text>
          </Stack>
        ) : null}
      </Stack>
    </Section>
  );
}
