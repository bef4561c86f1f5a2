import './mantine-styles.ts';
import '@mantine/notifications/styles.css';
import '../i18n/index.ts';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { useSession } from '../features/auth/session.ts';
import { NOTIFICATION_TIMEOUT_MS } from '../ui/notify.ts';
import { AppRoutes } from './router.tsx';
import { createAppTheme, cssVariablesResolver } from './theme.ts';
import { registerTitleResolvers } from './title-resolvers.ts';

registerTitleResolvers();

/** Everything a page needs around it: theme, colour scheme, modals, notifications, server state. */
export function Providers({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const isDarkMode = useSession((s) => s.isDarkMode);
  const { t } = useTranslation();
  const closeLabel = t('common.close');
  const theme = useMemo(() => createAppTheme(closeLabel), [closeLabel]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={isDarkMode ? 'dark' : 'light'}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications autoClose={NOTIFICATION_TIMEOUT_MS} position="bottom-right" />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** The app, with the server state main.tsx made (it may already be fetching the opened page's data). */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <Providers queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
