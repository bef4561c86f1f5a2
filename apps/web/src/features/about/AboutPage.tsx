import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { usePublicConfig } from '../config/config.api.ts';

export function AboutPage() {
  const { t } = useTranslation();
  const { productName, providerUrl } = usePublicConfig();
  return (
    <Paper withBorder p="xl" radius="md" maw={760} mx="auto" mt="md">
      <Stack gap="md">
        <Title order={1}>{t('about.heading', { product: productName })}</Title>
        <Text>{t('about.description', { product: productName })}</Text>
        <Text>{t('about.features')}</Text>
        <Group gap="lg">
          {providerUrl ? (
            <Anchor href={providerUrl} target="_blank" rel="noopener noreferrer">
              <Group gap={4} component="span" wrap="nowrap">
                {t('about.providerLink')}
                <IconExternalLink size={14} aria-label={t('common.opensInNewTab')} />
              </Group>
            </Anchor>
          ) : null}
          <Anchor component={Link} to={pathTo('PrivacyPolicy')}>
            {t('routes.privacyPolicy')}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
