import { List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 'Your password must : Contain at least 8 characters / Not be too common / Be alphanumerical'. */
export function PasswordHints({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div id={id}>
      <Text size="sm" fw={500}>
        {t('auth.password.hintsTitle')}
      </Text>
      <List size="sm" c="dimmed" spacing={2} mt={4}>
        <List.Item>{t('auth.password.hintLength')}</List.Item>
        <List.Item>{t('auth.password.hintCommon')}</List.Item>
        <List.Item>{t('auth.password.hintAlphanumeric')}</List.Item>
      </List>
    </div>
  );
}
