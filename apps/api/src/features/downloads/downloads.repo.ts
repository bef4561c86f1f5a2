import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { submissionFiles } from '../../db/schema-assignments.ts';

/** A submitted file's name and bytes, or null when it is gone. */
export async function findSubmissionFileContent(
  db: Executor,
  id: number,
): Promise<{ filename: string; content: Buffer } | null> {
  const [row] = await db
    .select({ filename: submissionFiles.filename, content: submissionFiles.content })
    .from(submissionFiles)
    .where(eq(submissionFiles.id, id))
    .limit(1);
  return row ?? null;
}
