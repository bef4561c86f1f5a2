import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { kernelHosts } from '../../db/schema-cluster.ts';
import { workbookSessions } from '../../db/schema-workbooks.ts';

export type KernelHostRow = typeof kernelHosts.$inferSelect;

/** A host whose last beat is older than this is gone: its sessions move on their next run. */
export const HOST_STALE_SECONDS = 20;
/** Past this, a host is gone whatever the others do (when every host died, none looks alive). */
const HOST_SILENT_SECONDS = 120;
/** Rows of hosts silent this long are removed (their sessions have moved or ended long ago). */
const HOST_FORGOTTEN_HOURS = 1;

/**
 * Whether the host's beat is recent: within HOST_STALE_SECONDS of the freshest beat of any host rather
 * than of the clock, so that after a database outage (when no host could beat) the hosts are not all
 * taken for gone, and their sessions moved, in the seconds before they beat again; and never older
 * than HOST_SILENT_SECONDS.
 */
export const hostIsAlive = sql<boolean>`(${kernelHosts.heartbeatAt} > (
    select max(h.heartbeat_at) from ${kernelHosts} h) - make_interval(secs => ${HOST_STALE_SECONDS}::float8)
  and ${kernelHosts.heartbeatAt} > now() - make_interval(secs => ${HOST_SILENT_SECONDS}::float8))`;

export async function beat(
  db: Executor,
  host: Pick<KernelHostRow, 'id' | 'kind' | 'url' | 'maxKernels' | 'kernels'>,
): Promise<void> {
  await db
    .insert(kernelHosts)
    .values(host)
    .onConflictDoUpdate({
      target: kernelHosts.id,
      set: {
        url: host.url,
        maxKernels: host.maxKernels,
        kernels: host.kernels,
        heartbeatAt: sql`now()`,
      },
    });
}

export async function removeHost(db: Executor, id: string): Promise<void> {
  await db.delete(kernelHosts).where(eq(kernelHosts.id, id));
}

export async function forgetLongDeadHosts(db: Executor): Promise<void> {
  await db
    .delete(kernelHosts)
    .where(lt(kernelHosts.heartbeatAt, sql`now() - make_interval(hours => ${HOST_FORGOTTEN_HOURS}::int)`));
}

/**
 * The live host (other than `exceptId`) with the most room left, counting the live sessions it owns
 * (exact, unlike its last beat's count); null when every live host is full.
 */
export async function findRoomiestHost(
  db: Executor,
  exceptId: string,
): Promise<{ id: string; url: string } | null> {
  const used = sql<number>`(select count(*) from ${workbookSessions} s
      where s.kernel_host = ${kernelHosts.id} and s.status = 'live')::int`;
  const [row] = await db
    .select({ id: kernelHosts.id, url: kernelHosts.url })
    .from(kernelHosts)
    .where(and(ne(kernelHosts.id, exceptId), hostIsAlive, sql`${used} < ${kernelHosts.maxKernels}`))
    .orderBy(sql`${used}::float8 / ${kernelHosts.maxKernels}`, asc(kernelHosts.kernels))
    .limit(1);
  return row ?? null;
}
