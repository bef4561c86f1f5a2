import { Menu, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconBell,
  IconCheck,
  IconInfoCircle,
  IconKey,
  IconLogout,
  IconMail,
  IconPlugConnected,
  IconUser,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { chooseLanguage, signOut } from '../../features/auth/sign-in.ts';
import { useSession } from '../../features/auth/session.ts';
import { NotificationBell } from '../../features/notifications/NotificationBell.tsx';
import { LANGUAGES, LANGUAGE_NAMES } from '../../i18n/index.ts';
import { leaveWithoutRemembering } from '../../features/auth/deliberate-logout.ts';
import { pathTo } from '../../routes/route-table.ts';
import { ColorSchemeButton, LanguageButton, UserButton } from './HeaderButtons.tsx';
import { useTakeOver } from './header-handover.ts';

// The header's controls with their menus and tooltip, loaded after the first screen
// (HeaderControlsSlot.tsx); HeaderButtons.tsx has their faces, which stand in for them until then.

export function HeaderControls({ isAuthenticated }: { isAuthenticated: boolean }) {
  return (
    <>
      <LanguageSwitcher />
      <ColorSchemeToggle />
      {isAuthenticated ? <NotificationsControl /> : null}
      {isAuthenticated ? <UserMenu /> : null}
    </>
  );
}

function LanguageSwitcher() {
  const current = useSession((s) => s.displayLang);
  const { ref, openedByStandIn } = useTakeOver('language');
  return (
    <Menu position="bottom-end" defaultOpened={openedByStandIn}>
      <Menu.Target>
        <LanguageButton ref={ref} />
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

function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { ref } = useTakeOver('colorScheme');
  return (
    <Tooltip label={t('header.darkMode')}>
      <ColorSchemeButton ref={ref} />
    </Tooltip>
  );
}

function NotificationsControl() {
  const { ref, openedByStandIn } = useTakeOver('notifications');
  return <NotificationBell buttonRef={ref} defaultOpened={openedByStandIn} />;
}

function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isStaff = useSession((s) => s.is_staff);
  const { ref, openedByStandIn } = useTakeOver('user');

  const confirmLogout = () =>
    modals.openConfirmModal({
      title: t('auth.logout.title'),
      children: <Text size="sm">{t('auth.logout.confirm')}</Text>,
      labels: { confirm: t('common.ok'), cancel: t('common.cancel') },
      onConfirm: () => {
        leaveWithoutRemembering();
        void signOut().then((ssoLogoutUrl) => {
          // Signed in through a university: end its session too (SAML single logout), which comes back here.
          if (ssoLogoutUrl !== null) window.location.assign(ssoLogoutUrl);
          else void navigate(pathTo('Login'), { replace: true });
        });
      },
    });

  return (
    <Menu position="bottom-end" defaultOpened={openedByStandIn}>
      <Menu.Target>
        <UserButton ref={ref} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={pathTo('Profile')} leftSection={<IconUser size={16} aria-hidden />}>
          {t('header.profile')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={pathTo('NotificationSettings')}
          leftSection={<IconBell size={16} aria-hidden />}
        >
          {t('header.notificationSettings')}
        </Menu.Item>
        {isStaff ? (
          <Menu.Item
            component={Link}
            to={pathTo('MailOutbox')}
            leftSection={<IconMail size={16} aria-hidden />}
          >
            {t('header.outbox')}
          </Menu.Item>
        ) : null}
        {isStaff ? (
          <Menu.Item
            component={Link}
            to={pathTo('SignInSettings')}
            leftSection={<IconKey size={16} aria-hidden />}
          >
            {t('header.signInSettings')}
          </Menu.Item>
        ) : null}
        {isStaff ? (
          <Menu.Item
            component={Link}
            to={pathTo('LtiSettings')}
            leftSection={<IconPlugConnected size={16} aria-hidden />}
          >
            {t('header.ltiSettings')}
          </Menu.Item>
        ) : null}
        <Menu.Item
          component={Link}
          to={pathTo('About')}
          leftSection={<IconInfoCircle size={16} aria-hidden />}
        >
          {t('header.about')}
        </Menu.Item>
        <Menu.Item onClick={confirmLogout} leftSection={<IconLogout size={16} aria-hidden />}>
          {t('header.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
