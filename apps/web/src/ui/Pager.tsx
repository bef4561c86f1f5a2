import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The page buttons under a list, with names in the reader's language; nothing when one page holds it all. */
export function Pager({
  total,
  value,
  onChange,
}: {
  total: number;
  value: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={total}
        value={Math.min(value, total)}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('pagination.page', { page: item }) })}
      />
    </Group>
  );
}
