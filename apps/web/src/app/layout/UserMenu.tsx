import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconInfoCircle, IconLogout, IconMail, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../../features/auth/sign-in.ts';
import { useSession } from '../../features/auth/session.ts';
import { leaveWithoutRemembering } from '../guards.tsx';
import { pathTo } from '../route-table.ts';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = useSession((s) => s.emailAddress) ?? '';
  const isStaff = useSession((s) => s.is_staff);

  const confirmLogout = () =>
    modals.openConfirmModal({
      title: t('auth.logout.title'),
      children: <Text size="sm">{t('auth.logout.confirm')}</Text>,
      labels: { confirm: t('common.ok'), cancel: t('common.cancel') },
      onConfirm: () => {
        leaveWithoutRemembering();
        void signOut().then(() => navigate(pathTo('Login'), { replace: true }));
      },
    });

  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <UnstyledButton aria-label={t('header.userMenu')}>
          <Avatar radius="xl" size={34} color="blue" alt="">
            {email.slice(0, 1).toUpperCase() || <IconUser size={18} aria-hidden />}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={pathTo('Profile')} leftSection={<IconUser size={16} aria-hidden />}>
          {t('header.profile')}
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
