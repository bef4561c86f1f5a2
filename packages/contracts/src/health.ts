import { z } from 'zod';

export const ComponentStatus = z.object({ ok: z.boolean(), detail: z.string() });
export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: ComponentStatus.extend({ driver: z.enum(['pglite', 'postgres']) }),
  queue: ComponentStatus,
  sandbox: ComponentStatus,
});
export type Health = z.infer<typeof Health>;

export const PublicConfig = z.object({
  product_name: z.string(),
  google_client_id: z.string().nullable(),
  provider_url: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
