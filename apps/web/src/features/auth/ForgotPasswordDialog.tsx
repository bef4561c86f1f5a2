import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ForgotPasswordDialog({
  opened,
  onClose,
  productName,
}: {
  opened: boolean;
  onClose: () => void;
  productName: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('auth.login.forgottenTitle')} centered>
      <Text>{t('auth.login.forgottenHelp', { product: productName })}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>{t('common.ok')}</Button>
      </Group>
    </Modal>
  );
}
