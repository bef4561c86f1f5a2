import {
  Alert,
  Anchor,
  Badge,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { EMAIL_STATUSES, EmailStatus, type OutboxEmailSummary } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatters } from '../../i18n/format.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useSession } from '../auth/session.ts';
import { OUTBOX_PAGE_SIZE, outboxEmailQuery, outboxQuery } from './mail.api.ts';

const STATUS_COLORS: Record<EmailStatus, string> = {
  pending: 'yellow',
  sent: 'teal',
  failed: 'red',
  kept: 'blue',
};

function StatusBadge({ status }: { status: EmailStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {t(`mail.status.${status}`)}
    </Badge>
  );
}

/**
 * Staff: every e-mail the system wrote, newest first. Without SMTP they are all `kept` here, and this is
 * where staff read (and forward) invitations and links.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const isStaff = useSession((s) => s.is_staff);
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const parsedStatus = EmailStatus.safeParse(searchParams.get('status'));
  const status = parsedStatus.success ? parsedStatus.data : null;
  const openedId = Number.parseInt(searchParams.get('email') ?? '', 10);
  const outbox = useQuery({ ...outboxQuery({ page, status }), enabled: isStaff });

  const update = (changes: Record<string, string | null>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  if (!isStaff) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('routes.mailOutbox')}</Title>
        <Alert color="orange" icon={<IconLock aria-hidden />} title={t('mail.forbiddenTitle')} role="alert">
          <Text size="sm">{t('mail.forbidden')}</Text>
        </Alert>
      </Stack>
    );
  }

  const total = outbox.data ? Math.max(1, Math.ceil(outbox.data.count / OUTBOX_PAGE_SIZE)) : 1;
  const statusOptions = [
    { value: 'all', label: t('mail.allStatuses') },
    ...EMAIL_STATUSES.map((value) => ({ value, label: t(`mail.status.${value}`) })),
  ];

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('routes.mailOutbox')}</Title>
        <Text c="dimmed" size="sm" mt={4}>
          {t('mail.help')}
        </Text>
      </div>
      <Group>
        <Select
          label={t('mail.filterStatus')}
          data={statusOptions}
          value={status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? value : null, page: null })}
          allowDeselect={false}
          w={220}
        />
      </Group>
      {outbox.isError ? (
        <ErrorState error={outbox.error} onRetry={() => void outbox.refetch()} />
      ) : !outbox.data ? (
        <Skeleton height={240} radius="md" aria-busy="true" />
      ) : outbox.data.results.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text size="sm">{t('mail.empty')}</Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('routes.mailOutbox')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('mail.columns.created')}</Table.Th>
                <Table.Th>{t('mail.columns.recipient')}</Table.Th>
                <Table.Th>{t('mail.columns.subject')}</Table.Th>
                <Table.Th>{t('mail.columns.kind')}</Table.Th>
                <Table.Th>{t('mail.columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outbox.data.results.map((email: OutboxEmailSummary) => (
                <Table.Tr key={email.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.dateTime(email.created_at)}</Table.Td>
                  <Table.Td>{email.to_address}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => update({ email: String(email.id) })}
                    >
                      {email.subject}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{t(`mail.kind.${email.kind}`)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={email.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager
        total={total}
        value={page}
        onChange={(next) => update({ page: next > 1 ? String(next) : null })}
      />
      {Number.isInteger(openedId) && openedId > 0 ? (
        <OutboxEmailDialog id={openedId} onClose={() => update({ email: null })} />
      ) : null}
    </Stack>
  );
}

function OutboxEmailDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const email = useQuery(outboxEmailQuery(id));
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={email.data?.subject ?? t('common.loading')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {email.isError ? (
        <ErrorState error={email.error} onRetry={() => void email.refetch()} />
      ) : !email.data ? (
        <Skeleton height={200} />
      ) : (
        <Stack gap="sm">
          <Group gap="xs">
            <StatusBadge status={email.data.status} />
            <Badge variant="outline">{t(`mail.kind.${email.data.kind}`)}</Badge>
            <Badge variant="outline">{email.data.lang}</Badge>
          </Group>
          <Text size="sm">
            {t('mail.columns.recipient')}: {email.data.to_address}
          </Text>
          <Text size="sm">
            {t('mail.columns.created')}: {format.dateTime(email.data.created_at)}
            {email.data.sent_at ? ` · ${t('mail.sentAt')}: ${format.dateTime(email.data.sent_at)}` : ''}
          </Text>
          {email.data.attempts > 0 ? (
            <Text size="sm">{t('mail.attempts', { count: email.data.attempts })}</Text>
          ) : null}
          {email.data.last_error ? (
            <Alert color="red" title={t('mail.lastError')}>
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                {email.data.last_error}
              </Text>
            </Alert>
          ) : null}
          <Paper withBorder p="md" radius="sm" aria-label={t('mail.body')}>
            <Text
              component="pre"
              size="sm"
              m={0}
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit' }}
            >
              {email.data.text_body}
            </Text>
          </Paper>
        </Stack>
      )}
    </Modal>
  );
}
