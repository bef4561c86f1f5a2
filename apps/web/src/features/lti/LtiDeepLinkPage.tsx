import { Alert, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LtiDeepLinkId } from '@kadai/contracts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { DeepLinkPicker } from './DeepLinkPicker.tsx';
import { LinkCourseStep } from './LinkCourseStep.tsx';
import { contextQuery, deepLinkQuery } from './lti.api.ts';

/**
 * The deep-linking picker (`/lti/deep-link/{deep_link_id}`, issue 38): an instructor adding Kadai to
 * their LMS course picks the assignments and quizzes the LMS should link to. An LMS course not linked
 * yet is linked first (the step of `/lti/context/{id}`); the picker then lists the course's items.
 */
export function LtiDeepLinkPage() {
  const { t } = useTranslation();
  const parsed = LtiDeepLinkId.safeParse(useParams().deep_link_id);
  const id = parsed.success ? parsed.data : null;
  const info = useQuery({ ...deepLinkQuery(id ?? ''), enabled: id !== null });
  const contextId = info.data && info.data.course === null ? info.data.context_id : null;
  const context = useQuery({ ...contextQuery(contextId ?? 0), enabled: contextId !== null });
  if (id === null) return <NotFoundPage />;

  const body = () => {
    if (info.isError) return <ErrorState error={info.error} onRetry={() => void info.refetch()} />;
    if (!info.data) return <Skeleton height={240} aria-busy="true" />;
    if (info.data.course !== null) return <DeepLinkPicker deepLinkId={id} info={info.data} />;
    if (contextId === null) {
      return (
        <Alert color="blue" icon={<IconInfoCircle aria-hidden />}>
          <Text size="sm">{t('lti.deepLink.noCourse')}</Text>
        </Alert>
      );
    }
    if (context.isError) return <ErrorState error={context.error} onRetry={() => void context.refetch()} />;
    if (!context.data) return <Skeleton height={240} aria-busy="true" />;
    // Once linked, the picker's answer names the course and its items.
    return <LinkCourseStep context={context.data} onLinked={() => void info.refetch()} />;
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('routes.ltiDeepLink')}</Title>
        {info.data ? (
          <Text c="dimmed" size="sm" mt={4}>
            {t('lti.deepLink.help', { platform: info.data.platform })}
          </Text>
        ) : null}
      </div>
      {body()}
    </Stack>
  );
}
