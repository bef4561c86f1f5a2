import { Burger, Group, UnstyledButton, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useIsAuthenticated } from '../../features/auth/session.ts';
import { usePublicConfig } from '../../features/config/config.api.ts';
import { useCanUsePyGrade } from '../../features/pygrade/pygrade-access.ts';
import { ROUTES, pathTo } from '../../routes/route-table.ts';
import { HeaderControlsSlot } from './HeaderControlsSlot.tsx';
import classes from './Header.module.css';

export interface HeaderProps {
  /** The side rail's burger, shown on narrow screens inside a course. */
  burger?: { opened: boolean; toggle: () => void };
}

export function Header({ burger }: HeaderProps) {
  const { t } = useTranslation();
  const { productName } = usePublicConfig();
  const isAuthenticated = useIsAuthenticated();
  const { pathname } = useLocation();
  const inCourses = pathname === '/course' || pathname.startsWith('/course/');
  // The PyGrade tab is for editors (of any course) and staff; students never see it.
  const canUsePyGrade = useCanUsePyGrade();
  const inPyGrade = pathname === '/pygrade' || pathname.startsWith('/pygrade/');

  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap">
        {burger ? (
          <Burger
            opened={burger.opened}
            onClick={burger.toggle}
            className={classes.burger}
            size="sm"
            aria-label={t('header.courseMenu')}
            aria-expanded={burger.opened}
          />
        ) : null}
        <UnstyledButton
          component={Link}
          to={pathTo('Course')}
          className={classes.logo}
          aria-label={t('header.home', { product: productName })}
        >
          <IconSchool size={26} aria-hidden />
          <Text component="span" fw={700} size="lg" visibleFrom="xs">
            {productName}
          </Text>
        </UnstyledButton>
        {isAuthenticated ? (
          <nav aria-label={t('header.mainNavigation')} className={classes.tabs}>
            <Link to={pathTo('Course')} className={classes.tab} aria-current={inCourses ? 'page' : undefined}>
              {t('header.courseTab')}
            </Link>
            {canUsePyGrade ? (
              <Link
                to={ROUTES.PyGrade.path}
                className={classes.tab}
                aria-current={inPyGrade ? 'page' : undefined}
              >
                {t('header.pygradeTab')}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Group>
      <HeaderControlsSlot isAuthenticated={isAuthenticated} />
    </Group>
  );
}
