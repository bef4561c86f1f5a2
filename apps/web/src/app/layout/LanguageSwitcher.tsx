import { Box, Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage } from '../../features/auth/sign-in.ts';
import { useSession } from '../../features/auth/session.ts';
import { LANGUAGES, LANGUAGE_NAMES } from '../../i18n/index.ts';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const current = useSession((s) => s.displayLang);
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconLanguage size={18} aria-hidden />}
          aria-label={t('header.languageSwitcher')}
          px="xs"
        >
          <Box component="span" lang={current} visibleFrom="xs">
            {LANGUAGE_NAMES[current]}
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            onClick={() => chooseLanguage(language)}
            rightSection={language === current ? <IconCheck size={16} aria-hidden /> : null}
            aria-current={language === current ? 'true' : undefined}
          >
            {LANGUAGE_NAMES[language]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
