import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { ERASURE_RULES } from './tables.ts';

/*
 * The erasure's SQL (docs/privacy.md, "Erasure"): every table of ERASURE_RULES, in one transaction
 * the service opens. Stored files are only collected here; the service deletes them after the commit.
 */

export interface ErasurePlan {
  userId: number;
  /** Their address before the erasure: outbox rows to it go too. */
  email: string;
  /** What replaces every copy of their address (audit tables). */
  placeholderEmail: string;
  keepGrades: boolean;
  forumText: 'replace' | 'keep';
  /** Their name as other people's notifications copied it, and the pseudonym's in its place. */
  name: { first_name: string; last_name: string };
  pseudonymName: { first_name: string; last_name: string };
  /** What a replaced forum post says, and its search vector (features/forum/search.ts). */
  forumPlaceholder: { title: string; content: string; topicVector: string; commentVector: string };
}

export interface ErasureOutcome {
  /** table → rows deleted or changed. */
  rows: Record<string, number>;
  /** Stored files whose rows went: deleted after the commit. */
  storageKeys: string[];
}

interface Step {
  plan: ErasurePlan;
  /** Runs a statement whose result rows are counted against `table`. */
  run(table: string, query: SQL): Promise<void>;
  /** Runs a statement returning `storage_key`s of files to delete, counted against `table`. */
  collect(table: string, query: SQL): Promise<void>;
}

const Counted = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) });
const Keys = z.object({ rows: z.array(z.object({ storage_key: z.string().nullable() })) });

/**
 * The tables ERASURE_RULES marks `custom`, each by a step of its own (tables.test.ts checks that every
 * such table has one). They run before the generic rules, in this order.
 */
export const CUSTOM_ERASURE_STEPS: Readonly<Record<string, (step: Step) => Promise<void>>> = {
  submissions: async ({ plan, run }) => {
    const id = plan.userId;
    // Reports are derived data that quote the code: run again, they leave the person out.
    await run(
      'similarity_reports',
      sql`delete from similarity_reports r where exists (
            select 1 from submissions s where s.user_id = ${id} and s.assignment_id = r.assignment_id
              and (s.course_id = r.course_id or s.course_id = r.include_course_id))`,
    );
    if (plan.keepGrades) {
      await run(
        'submission_files',
        sql`delete from submission_files f using submissions s
            where s.id = f.submission_id and s.user_id = ${id}`,
      );
      await run(
        'evaluations',
        sql`update evaluations e set stdout = '', stderr = '',
              items = (select coalesce(jsonb_agg(i || '{"output": ""}'::jsonb), '[]'::jsonb)
                       from jsonb_array_elements(e.items) i)
            from submissions s
            where s.id = e.submission_id and s.user_id = ${id}
              and (e.stdout <> '' or e.stderr <> '' or e.items <> '[]'::jsonb)`,
      );
      return;
    }
    // The review audit outlives reviews by design; about the person's own work it goes with it.
    await run(
      'review_audit',
      sql`delete from review_audit a using submissions s
          where s.id = a.submission_id and s.user_id = ${id}`,
    );
    await run('submissions', sql`delete from submissions where user_id = ${id}`);
  },
  user_identities: async ({ plan, run }) => {
    await run(
      'pending_members',
      sql`delete from pending_members p where lower(p.institutional_id) in (
            select lower(i.institutional_id) from user_identities i
            where i.user_id = ${plan.userId} and i.institutional_id is not null)`,
    );
    await run('user_identities', sql`delete from user_identities where user_id = ${plan.userId}`);
  },
  email_outbox: async ({ plan, run }) => {
    await run(
      'email_outbox',
      sql`delete from email_outbox
          where to_user_id = ${plan.userId} or lower(to_address) = ${plan.email.toLowerCase()}`,
    );
  },
  review_audit: async ({ plan, run }) => {
    await run(
      'review_audit',
      sql`update review_audit set actor_email = ${plan.placeholderEmail} where actor_id = ${plan.userId}`,
    );
  },
  extension_audit: async ({ plan, run }) => {
    const id = plan.userId;
    const placeholder = plan.placeholderEmail;
    await run(
      'extension_audit',
      sql`update extension_audit
          set user_email = case when user_id = ${id} then ${placeholder} else user_email end,
              actor_email = case when actor_id = ${id} then ${placeholder} else actor_email end
          where user_id = ${id} or actor_id = ${id}`,
    );
  },
  user_erasures: async ({ plan, run }) => {
    await run(
      'user_erasures',
      sql`update user_erasures set actor_email = ${plan.placeholderEmail} where actor_id = ${plan.userId}`,
    );
  },
  forum_upvotes: async ({ plan, run }) => {
    await run(
      'forum_records',
      sql`update forum_records r set upvotes = greatest(r.upvotes - 1, 0)
          from forum_upvotes v where v.record_id = r.id and v.user_id = ${plan.userId}`,
    );
    await run('forum_upvotes', sql`delete from forum_upvotes where user_id = ${plan.userId}`);
  },
  forum_records: async ({ plan, run }) => {
    if (plan.forumText === 'keep') return;
    const p = plan.forumPlaceholder;
    await run(
      'forum_records',
      sql`update forum_records
          set title = case when parent_id is null then ${p.title} else '' end,
              content = ${p.content},
              search_vector = (case when parent_id is null then ${p.topicVector} else ${p.commentVector} end)::tsvector
          where author_id = ${plan.userId}`,
    );
  },
  forum_files: async ({ plan, collect }) => {
    if (plan.forumText === 'keep') return;
    await collect('forum_files', sql`delete from forum_files where uploaded_by = ${plan.userId}`);
  },
  data_exports: async ({ plan, collect }) => {
    await collect('data_exports', sql`delete from data_exports where user_id = ${plan.userId}`);
  },
};

/**
 * Deletes or changes every row naming the person as ERASURE_RULES says: the custom steps first, then
 * `delete` and (unless grades are kept) `grades` columns, table by table.
 */
export async function eraseRows(tx: Executor, plan: ErasurePlan): Promise<ErasureOutcome> {
  const rows: Record<string, number> = {};
  const storageKeys: string[] = [];
  const add = (table: string, n: number) => {
    if (n > 0) rows[table] = (rows[table] ?? 0) + n;
  };
  const step: Step = {
    plan,
    async run(table, query) {
      const result = await tx.execute(
        sql`with changed as (${query} returning 1) select count(*) as n from changed`,
      );
      add(table, Counted.parse(result).rows[0]?.n ?? 0);
    },
    async collect(table, query) {
      const result = await tx.execute(sql`${query} returning storage_key`);
      const keys = Keys.parse(result).rows;
      add(table, keys.length);
      for (const key of keys) if (key.storage_key) storageKeys.push(key.storage_key);
    },
  };
  for (const handle of Object.values(CUSTOM_ERASURE_STEPS)) await handle(step);
  for (const [table, columns] of Object.entries(ERASURE_RULES)) {
    for (const [column, rule] of Object.entries(columns)) {
      if (rule.rule === 'delete' || (rule.rule === 'grades' && !plan.keepGrades)) {
        await step.run(
          table,
          sql`delete from ${sql.identifier(table)} where ${sql.identifier(column)} = ${plan.userId}`,
        );
      }
    }
  }
  return { rows, storageKeys };
}

/**
 * Other people's notifications copied the person's name (who replied, who joined): where it is the
 * name they have now, it becomes the pseudonym's. Best effort: a name they had before is not found.
 */
export async function pseudonymiseNotificationFacts(tx: Executor, plan: ErasurePlan): Promise<number> {
  if (!plan.name.first_name && !plan.name.last_name) return 0;
  const name = JSON.stringify(plan.name);
  const pseudonym = JSON.stringify(plan.pseudonymName);
  const result = await tx.execute(
    sql`with changed as (
          update notifications set facts = facts
            || case when facts->'actor' = ${name}::jsonb then jsonb_build_object('actor', ${pseudonym}::jsonb) else '{}'::jsonb end
            || case when facts->'member' = ${name}::jsonb then jsonb_build_object('member', ${pseudonym}::jsonb) else '{}'::jsonb end
          where facts->'actor' = ${name}::jsonb or facts->'member' = ${name}::jsonb
          returning 1)
        select count(*) as n from changed`,
  );
  return Counted.parse(result).rows[0]?.n ?? 0;
}

/** The account itself, pseudonymised: no name, an undeliverable address, no password, no rights. */
export async function pseudonymiseUser(
  tx: Executor,
  userId: number,
  pseudonym: string,
  placeholderEmail: string,
): Promise<boolean> {
  const result = await tx.execute(
    sql`with changed as (
          update users set email = ${placeholderEmail}, first_name = '', last_name = ${pseudonym},
            first_name_ja = '', last_name_ja = '', password_hash = null, is_staff = false,
            is_active = false, roles = '{no_role}', display_lang = 'ja', last_login = null,
            email_verified_at = null, password_changed_at = clock_timestamp()
          where id = ${userId} returning 1)
        select count(*) as n from changed`,
  );
  return (Counted.parse(result).rows[0]?.n ?? 0) > 0;
}

const UserFacts = z.object({
  rows: z.array(
    z.object({
      id: z.coerce.number(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      is_staff: z.boolean(),
      is_active: z.boolean(),
    }),
  ),
});

/**
 * Serialises erasures (two staff erasing each other at once must not both succeed), then reads the
 * person's row, locked until the transaction ends.
 */
export async function lockPersonForErasure(
  tx: Executor,
  userId: number,
): Promise<z.infer<typeof UserFacts>['rows'][number] | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kadai:privacy:erasure'))`);
  const result = await tx.execute(
    sql`select id, email, first_name, last_name, is_staff, is_active from users where id = ${userId} for update`,
  );
  return UserFacts.parse(result).rows[0] ?? null;
}

/** Active staff other than `userId`: erasing the last one would lock everyone out. */
export async function countOtherActiveStaff(tx: Executor, userId: number): Promise<number> {
  const result = await tx.execute(
    sql`select count(*) as n from users where is_staff and is_active and id <> ${userId}`,
  );
  return Counted.parse(result).rows[0]?.n ?? 0;
}

/** Whether the actor is still active staff (another erasure may have taken that away meanwhile). */
export async function isActiveStaff(tx: Executor, userId: number): Promise<boolean> {
  const result = await tx.execute(
    sql`select count(*) as n from users where id = ${userId} and is_staff and is_active`,
  );
  return (Counted.parse(result).rows[0]?.n ?? 0) > 0;
}
