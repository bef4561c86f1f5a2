import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './errors.ts';

/** A failed load: what went wrong, and a retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('errors.loadFailed')}
      role="alert"
      my="md"
    >
      <Text size="sm">{errorMessage(error, t)}</Text>
      {onRetry ? (
        <Group mt="sm">
          <Button size="xs" variant="outline" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Group>
      ) : null}
    </Alert>
  );
}
