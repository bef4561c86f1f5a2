import { Anchor, Breadcrumbs as MantineBreadcrumbs, Skeleton, Text } from '@mantine/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Breadcrumbs.module.css';
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
      <MantineBreadcrumbs separatorMargin="xs" mb="md" classNames={{ root: classes.root }}>
        {crumbs.map((crumb, index) => {
          const title = titles[index];
          let text: string | null = null;
          if (crumb.kind === 'label') text = t(crumb.labelKey);
          else if (title?.data) text = title.data;
          else if (title?.isError) text = `#${crumb.value}`;
          const label = text ?? <Skeleton component="span" height={12} width={80} display="inline-block" />;
          const key = `${index}`;
          const className = crumb.kind === 'object' ? `${classes.crumb} ${classes.title}` : classes.crumb;
          return crumb.to ? (
            <Anchor
              key={key}
              component={Link}
              to={crumb.to}
              size="sm"
              className={className}
              title={text ?? undefined}
            >
              {label}
            </Anchor>
          ) : (
            <Text key={key} size="sm" aria-current="page" className={className} title={text ?? undefined}>
              {label}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </nav>
  );
}
