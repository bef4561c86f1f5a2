import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The spinner a page (or the shell, while a page's code arrives) shows until its data is there. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}
