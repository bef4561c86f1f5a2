import { ActionIcon, Avatar, Box, Button, UnstyledButton } from '@mantine/core';
import { IconLanguage, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../features/auth/session.ts';
import { LANGUAGE_NAMES } from '../../i18n/index.ts';
import classes from './Header.module.css';

// The faces of the header's controls. Their menus and the tooltip (Mantine's Menu and Tooltip, with
// @floating-ui: about a tenth of the shell's code) load after the first screen (HeaderControls.tsx);
// until then these same buttons stand in for them (HeaderControlsSlot.tsx), and the real controls wrap
// them, so nothing moves or changes when they arrive.

type ButtonProps = Omit<ComponentPropsWithRef<'button'>, 'color' | 'children'>;

/** Opens the language menu (on a phone its icon alone, as narrow as the buttons beside it). */
export function LanguageButton({ className, ...props }: ButtonProps) {
  const { t } = useTranslation();
  const current = useSession((s) => s.displayLang);
  return (
    <Button
      variant="subtle"
      color="gray"
      leftSection={<IconLanguage size={18} aria-hidden />}
      aria-label={t('header.languageSwitcher')}
      {...props}
      className={[classes.languageButton, className].filter(Boolean).join(' ')}
    >
      <Box component="span" lang={current} visibleFrom="xs">
        {LANGUAGE_NAMES[current]}
      </Box>
    </Button>
  );
}

/** Switches between the light and the dark colour scheme. */
export function ColorSchemeButton({ onClick, ...props }: ButtonProps) {
  const { t } = useTranslation();
  const isDarkMode = useSession((s) => s.isDarkMode);
  const setDarkMode = useSession((s) => s.setDarkMode);
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={t('header.darkMode')}
      aria-pressed={isDarkMode}
      {...props}
      // The tooltip wrapping the real toggle passes handlers of its own: both run.
      onClick={(event) => {
        onClick?.(event);
        setDarkMode(!isDarkMode);
      }}
    >
      {isDarkMode ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
    </ActionIcon>
  );
}

/** Opens the user menu. */
export function UserButton(props: ButtonProps) {
  const { t } = useTranslation();
  const email = useSession((s) => s.emailAddress) ?? '';
  return (
    <UnstyledButton aria-label={t('header.userMenu')} {...props}>
      <Avatar radius="xl" size={34} color="blue" alt="">
        {email.slice(0, 1).toUpperCase() || <IconUser size={18} aria-hidden />}
      </Avatar>
    </UnstyledButton>
  );
}
