import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './NotFoundPage.tsx';

/** Last resort for an error thrown while rendering a page (a failed lazy chunk after a deploy, a bug). */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <Stack align="center" gap="md" py={64} ta="center" component="main">
      <Title order={1}>{t('errors.unexpectedTitle')}</Title>
      <Text>{t('errors.unexpected')}</Text>
      <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
    </Stack>
  );
}
