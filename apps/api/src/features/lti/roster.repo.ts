import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';

/** The course's members (students and editors) who are people of this platform. */
export async function listLinkedMembers(
  db: Executor,
  platformId: number,
  courseId: number,
): Promise<{ userId: number; kind: 'student' | 'editor' }[]> {
  const result = await db.execute(sql`
    select cs.user_id, 'student' as kind from course_students cs
      join lti_users lu on lu.user_id = cs.user_id and lu.platform_id = ${platformId}
      where cs.course_id = ${courseId}
    union all
    select ce.user_id, 'editor' as kind from course_editors ce
      join lti_users lu on lu.user_id = ce.user_id and lu.platform_id = ${platformId}
      where ce.course_id = ${courseId}`);
  return z
    .object({ rows: z.array(z.object({ user_id: z.coerce.number(), kind: z.enum(['student', 'editor']) })) })
    .parse(result)
    .rows.map((r) => ({ userId: r.user_id, kind: r.kind }));
}
