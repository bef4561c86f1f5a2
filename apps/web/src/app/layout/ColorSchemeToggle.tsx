import { ActionIcon, Tooltip } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../features/auth/session.ts';

export function ColorSchemeToggle() {
  const { t } = useTranslation();
  const isDarkMode = useSession((s) => s.isDarkMode);
  const setDarkMode = useSession((s) => s.setDarkMode);
  const label = t('header.darkMode');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        aria-pressed={isDarkMode}
        onClick={() => setDarkMode(!isDarkMode)}
      >
        {isDarkMode ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
