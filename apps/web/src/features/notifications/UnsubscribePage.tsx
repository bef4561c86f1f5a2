import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconMailOff } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { UnsubscribeResult } from '@kadai/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { KIND_LABEL } from './notification-kinds.ts';
import { describeUnsubscribe, unsubscribe } from './notifications.api.ts';
import { notificationKeys } from './notifications.queries.ts';

/** "Stop e-mails about “Announcements”" and what that means, for what a link turns off. */
function describe(result: UnsubscribeResult, t: TFunction): { what: string; explain: string } {
  if (result.scope === 'kind' && result.kind !== null) {
    const kind = t(KIND_LABEL[result.kind]);
    return {
      what: t('notifications.unsubscribe.what.kind', { kind }),
      explain: t('notifications.unsubscribe.explain.kind', { kind }),
    };
  }
  if (result.scope === 'course') {
    return {
      what: t('notifications.unsubscribe.what.course'),
      explain: t('notifications.unsubscribe.explain.course'),
    };
  }
  return {
    what: t('notifications.unsubscribe.what.all'),
    explain: t('notifications.unsubscribe.explain.all'),
  };
}

/**
 * Where an e-mail's unsubscribe link lands (no sign-in: the link's signed token says whose e-mail and
 * what). It reads what the link turns off and asks before doing it: a mail scanner that opens the link
 * changes nothing. Mail programs' one-click unsubscribe (RFC 8058) posts to the API directly.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token') ?? '';
  const description = useQuery({
    queryKey: [...notificationKeys.all, 'unsubscribe', token],
    queryFn: ({ signal }) => describeUnsubscribe(token, signal),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const stop = useMutation({ mutationFn: () => unsubscribe(token) });

  const problem = (message: string, title?: string) => (
    <Alert color="red" icon={<IconAlertTriangle aria-hidden />} role="alert" title={title}>
      <Text size="sm">{message}</Text>
    </Alert>
  );

  let body: ReactNode;
  if (token === '') body = problem(t('notifications.unsubscribe.missingToken'));
  else if (description.isError) body = problem(errorMessage(description.error, t));
  else if (!description.data) body = <PageLoader />;
  else {
    const { what, explain } = describe(stop.data ?? description.data, t);
    body = (
      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="unsubscribe-what">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4" id="unsubscribe-what">
            {what}
          </Title>
          {stop.isSuccess ? (
            <Alert color="teal" icon={<IconCircleCheck aria-hidden />} role="status" w="100%">
              <Stack gap={4}>
                <Text size="sm" fw={600}>
                  {t('notifications.unsubscribe.done')}
                </Text>
                <Text size="sm">{t('notifications.unsubscribe.settingsHint')}</Text>
                <Anchor component={Link} to={pathTo('NotificationSettings')} size="sm">
                  {t('notifications.settingsLink')}
                </Anchor>
              </Stack>
            </Alert>
          ) : (
            <>
              <Text size="sm">{explain}</Text>
              {stop.isError
                ? problem(errorMessage(stop.error, t), t('notifications.unsubscribe.failed'))
                : null}
              <Button
                color="red"
                leftSection={<IconMailOff size={18} aria-hidden />}
                loading={stop.isPending}
                onClick={() => stop.mutate()}
              >
                {t('notifications.unsubscribe.confirm')}
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>{t('routes.unsubscribe')}</Title>
      {body}
    </Stack>
  );
}
