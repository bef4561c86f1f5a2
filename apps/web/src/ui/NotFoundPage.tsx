import { Button, Stack, Text, Title } from '@mantine/core';
import { IconError404 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../routes/route-table.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={64} ta="center">
      <IconError404 size={72} stroke={1.2} aria-hidden />
      <Title order={1}>{t('routes.notFound')}</Title>
      <Text>{t('notFound.message')}</Text>
      <Button component={Link} to={pathTo('Course')}>
        {t('notFound.back')}
      </Button>
    </Stack>
  );
}
