import { EmptyState, Title } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ROUTES, type RouteName } from '../../routes/route-table.ts';

/** The page of a course part that a later release fills in: its heading and an honest note. */
export function LaterReleasePage({ route }: { route: RouteName }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} mb="lg">
        {t(ROUTES[route].titleKey)}
      </Title>
      <EmptyState
        icon={<IconHourglassEmpty size={32} aria-hidden />}
        withIndicatorBackground
        title={t('laterRelease.title')}
        description={t('laterRelease.description')}
        py="xl"
      />
    </>
  );
}
