import { List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../i18n/keys.ts';
import { usePublicConfig } from '../config/config.api.ts';

const SECTIONS = [
  'collected',
  'purposes',
  'sharing',
  'retention',
  'security',
  'rights',
  'changes',
  'contact',
] as const;
type Section = (typeof SECTIONS)[number];

/** Sections that end in a list. */
const LIST_ITEMS: Partial<Record<Section, readonly TranslationKey[]>> = {
  collected: [
    'privacy.collected.items.account',
    'privacy.collected.items.membership',
    'privacy.collected.items.work',
    'privacy.collected.items.activity',
    'privacy.collected.items.preferences',
  ],
  rights: [
    'privacy.rights.items.access',
    'privacy.rights.items.correct',
    'privacy.rights.items.delete',
    'privacy.rights.items.object',
  ],
};

export function PrivacyPolicyPage() {
  const { t } = useTranslation();
  const { productName } = usePublicConfig();
  const values = { product: productName };
  return (
    <Paper withBorder p="xl" radius="md" maw={820} mx="auto" mt="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('routes.privacyPolicy')}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('privacy.updated')}
          </Text>
        </div>
        <Text>{t('privacy.intro', values)}</Text>
        {SECTIONS.map((section) => (
          <section key={section} aria-labelledby={`privacy-${section}`}>
            <Title order={2} size="h3" id={`privacy-${section}`} mb="xs">
              {t(`privacy.${section}.title`)}
            </Title>
            <Text>{t(`privacy.${section}.body`, values)}</Text>
            {LIST_ITEMS[section] ? (
              <List mt="xs" spacing={4}>
                {LIST_ITEMS[section].map((item) => (
                  <List.Item key={item}>{t(item, values)}</List.Item>
                ))}
              </List>
            ) : null}
          </section>
        ))}
      </Stack>
    </Paper>
  );
}
