import { Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { lazyComponent } from '../../ui/lazyComponent.ts';
import { Section } from '../../ui/Section.tsx';
import { courseLinksQuery } from './lti.api.ts';

// Most courses have no LMS course: the members page loads the cards (roster sync, the gradebook's
// columns) only for one that has.
const LmsLinkCard = lazyComponent(() =>
  import('./LmsLinkCard.tsx').then((m) => ({ default: m.LmsLinkCard })),
);

/**
 * The course's LMS courses (issue 38), for its editors and staff: the roster taken from each and the
 * grades sent to its gradebook. Nothing at all for a course no LMS course is linked to, nor when the
 * server does not offer LTI (404) or refuses the reader (403).
 */
export function LmsPanel({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const links = useQuery(courseLinksQuery(courseId));
  if (isApiError(links.error, 404) || isApiError(links.error, 403)) return null;
  if (links.isError) {
    return (
      <Section title={t('lti.panel.title')}>
        <ErrorState error={links.error} onRetry={() => void links.refetch()} />
      </Section>
    );
  }
  if (!links.data || links.data.results.length === 0) return null;
  return (
    <Section title={t('lti.panel.title')}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('lti.panel.help')}
        </Text>
        <Suspense fallback={<Skeleton height={160} aria-busy="true" />}>
          {links.data.results.map((link) => (
            <LmsLinkCard key={link.id} courseId={courseId} link={link} />
          ))}
        </Suspense>
      </Stack>
    </Section>
  );
}
