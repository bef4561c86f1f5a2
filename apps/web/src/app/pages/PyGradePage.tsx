import { Button, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ROUTES, pathTo } from '../route-table.ts';

/** The path the browser loaded the app at, before any client-side navigation. */
const firstPathname = window.location.pathname;

/**
 * PyGrade is a separate application on the same origin. Reached by a link inside the app, this route
 * hands over to it with a full page load. Loaded directly, the server answered /pygrade/ with this app,
 * so PyGrade is not installed here: say so instead of reloading forever.
 */
export function PyGradePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isNotInstalled = pathname === firstPathname;
  useEffect(() => {
    if (!isNotInstalled) window.location.assign(ROUTES.PyGrade.path);
  }, [isNotInstalled]);
  if (!isNotInstalled) return null;
  return (
    <Stack align="center" gap="md" py={64} ta="center">
      <Title order={1}>{t('routes.pygrade')}</Title>
      <Text>{t('pygrade.unavailable')}</Text>
      <Button component={Link} to={pathTo('Course')}>
        {t('notFound.back')}
      </Button>
    </Stack>
  );
}
