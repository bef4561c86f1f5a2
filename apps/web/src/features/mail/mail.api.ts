import { OutboxEmail, OutboxList, type EmailStatus } from '@kadai/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

export const OUTBOX_PAGE_SIZE = 20;

export function outboxQuery(params: { page: number; status: EmailStatus | null }) {
  return queryOptions({
    queryKey: ['mail', 'outbox', params],
    queryFn: () =>
      apiCall('listOutbox', 'GET', '/Mail/outbox/', {
        query: {
          limit: OUTBOX_PAGE_SIZE,
          offset: (params.page - 1) * OUTBOX_PAGE_SIZE,
          status: params.status ?? undefined,
        },
        response: OutboxList,
      }),
    placeholderData: keepPreviousData,
  });
}

export function outboxEmailQuery(id: number) {
  return queryOptions({
    queryKey: ['mail', 'outbox', 'email', id],
    queryFn: () =>
      apiCall('getOutboxEmail', 'GET', '/Mail/outbox/{id}/', { path: { id }, response: OutboxEmail }),
  });
}
