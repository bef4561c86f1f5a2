import { Anchor, Breadcrumbs as MantineBreadcrumbs, Skeleton, Text } from '@mantine/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buildCrumbs, findTitleResolver, type Crumb } from './breadcrumbs.ts';
import { useCurrentRoute } from './useDocumentTitle.ts';

export function Breadcrumbs() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useCurrentRoute();
  const crumbs: Crumb[] = current ? buildCrumbs(current.name, current.params) : [];
  const params = current?.params ?? {};

  const titles = useQueries({
    queries: crumbs.map((crumb, index) => {
      const resolver = crumb.kind === 'object' ? findTitleResolver(crumb.param) : undefined;
      return {
        // Label crumbs never fetch; the index keeps their (disabled) queries apart.
        queryKey: [
          'breadcrumb',
          crumb.kind === 'object' ? crumb.param : `label-${index}`,
          crumb.kind === 'object' ? crumb.value : '',
        ],
        queryFn: () =>
          crumb.kind === 'object' && resolver
            ? resolver(crumb.value, params, queryClient)
            : Promise.resolve(''),
        enabled: resolver !== undefined,
        staleTime: 60_000,
      };
    }),
  });

  if (crumbs.length === 0) return null;

  return (
    <nav aria-label={t('common.breadcrumb')}>
      <MantineBreadcrumbs separatorMargin="xs" mb="md" styles={{ root: { flexWrap: 'wrap' } }}>
        {crumbs.map((crumb, index) => {
          const title = titles[index];
          let label: React.ReactNode;
          if (crumb.kind === 'label') label = t(crumb.labelKey);
          else if (title?.data) label = title.data;
          else if (title?.isError) label = `#${crumb.value}`;
          else label = <Skeleton component="span" height={12} width={80} display="inline-block" />;
          const key = `${index}`;
          return crumb.to ? (
            <Anchor key={key} component={Link} to={crumb.to} size="sm">
              {label}
            </Anchor>
          ) : (
            <Text key={key} size="sm" aria-current="page">
              {label}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </nav>
  );
}
