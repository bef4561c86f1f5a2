import { randomBytes } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { AssignmentFileList } from '@kadai/contracts';
import type { TestApp, CallResult } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import {
  assignmentCourses,
  assignmentFiles,
  assignments,
  submissions,
  testCases,
} from '../../db/schema-assignments.ts';
import { storedFiles } from '../../../test/stored-files.ts';

/** Test data for assignments, written straight to the database (the routes are what the tests test). */

const HOUR = 3600_000;
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR);

export interface CourseDates {
  courseId: number;
  /** Default: opened a day ago. */
  opensAt?: Date;
  /** Default: due in a week. */
  dueAt?: Date;
  lateUntil?: Date | null;
}

export async function insertAssignment(
  t: TestApp,
  fields: {
    title?: string;
    courses: CourseDates[];
    createdBy?: number;
    referenceSolution?: string;
    entryFile?: string;
  },
) {
  const [row] = await t.ctx.db
    .insert(assignments)
    .values({
      title: fields.title ?? `Assignment ${randomBytes(3).toString('hex')}`,
      statement: 'Print something.',
      createdBy: fields.createdBy ?? null,
      referenceSolution: fields.referenceSolution ?? '',
      entryFile: fields.entryFile ?? 'main.py',
    })
    .returning();
  if (fields.courses.length > 0) {
    await t.ctx.db.insert(assignmentCourses).values(
      fields.courses.map((c) => ({
        assignmentId: row!.id,
        courseId: c.courseId,
        opensAt: c.opensAt ?? hoursFromNow(-24),
        dueAt: c.dueAt ?? hoursFromNow(24 * 7),
        lateUntil: c.lateUntil ?? null,
      })),
    );
  }
  return row!;
}

export async function insertTestCase(
  t: TestApp,
  assignmentId: number,
  fields: Partial<typeof testCases.$inferInsert> = {},
) {
  const [row] = await t.ctx.db
    .insert(testCases)
    .values({ name: 'Test', kind: 'io', stdin: '1 2\n', expectedStdout: '3\n', ...fields, assignmentId })
    .returning();
  return row!;
}

export async function insertSubmission(
  t: TestApp,
  fields: Pick<typeof submissions.$inferInsert, 'assignmentId' | 'courseId' | 'userId'> &
    Partial<typeof submissions.$inferInsert>,
) {
  const [row] = await t.ctx.db
    .insert(submissions)
    .values({ status: 'Completed', ...fields })
    .returning();
  return row!;
}

export interface UploadPart {
  filename: string;
  content: Buffer | string;
  field?: string;
  contentType?: string;
}

/** A multipart/form-data body of the given files (and text fields). */
export function multipartBody(parts: UploadPart[], fields: Record<string, string> = {}) {
  const boundary = `----kadai${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field ?? 'file'}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs files as multipart/form-data. */
export async function upload(
  t: TestApp,
  url: string,
  token: string | undefined,
  parts: UploadPart[],
): Promise<CallResult> {
  const { payload, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await t.app.inject({ method: 'POST', url, headers, payload });
  let body: unknown = response.body;
  try {
    body = response.body.length > 0 ? JSON.parse(response.body) : null;
  } catch {
    // not JSON
  }
  const json =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  return { status: response.statusCode, headers: response.headers, body, json };
}

/**
 * The six callers of the assignments' authorization matrix around one assignment of `course` (opened,
 * with a hidden test, an attachment and a reference solution): anonymous, a student of the course, a
 * student of another course, an editor of the course, an editor of another course, staff.
 */
export async function createAssignmentWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const otherStudent = await createUser(t);
  await addStudent(t, world.otherCourse.id, otherStudent.id);
  const assignment = await insertAssignment(t, {
    courses: [{ courseId: world.course.id }],
    createdBy: world.users.editor.id,
    referenceSolution: 'a, b = map(int, input().split())\nprint(a + b)\n',
  });
  const testCase = await insertTestCase(t, assignment.id, { visibility: 'hidden' });
  const uploaded = await upload(
    t,
    `/api/Assignment/${assignment.id}/${world.course.id}/FileUpload/`,
    world.tokens.staff,
    [{ filename: 'data.csv', content: 'a,b\n1,2\n' }],
  );
  const [file] = AssignmentFileList.parse(uploaded.body);
  return {
    ...world,
    users: { ...world.users, otherStudent },
    tokens: { ...world.tokens, otherStudent: await tokenFor(t, otherStudent) },
    assignment,
    testCase,
    file: file!,
  };
}

/** A .zip of the given entries (path → text or bytes), as a bundle's author would make it. */
export function zipOf(entries: Record<string, string | Uint8Array>): Buffer {
  const input: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(entries)) {
    input[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  return Buffer.from(zipSync(input));
}

/** The smallest bundle an import accepts: an assignment with a title. */
export const minimalBundle = (title = 'Imported') =>
  zipOf({ 'assignment.json': JSON.stringify({ format_version: 1, title }) });

/** POSTs a bundle to `Assignment/import/{course_id}/`, with the given date fields. */
export async function importBundle(
  t: TestApp,
  courseId: number,
  token: string | undefined,
  zip: Buffer,
  fields: Record<string, string> = {},
): Promise<CallResult> {
  const { payload, contentType } = multipartBody([{ filename: 'bundle.zip', content: zip }], fields);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/Assignment/import/${courseId}/`,
    headers,
    payload,
  });
  const body: unknown = response.body.length > 0 ? JSON.parse(response.body) : null;
  const json =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  return { status: response.statusCode, headers: response.headers, body, json };
}

/** Everything an import could leave behind: rows of assignments, test cases, attachments, stored files. */
export async function bundleFootprint(t: TestApp) {
  const count = async (table: typeof assignments | typeof testCases | typeof assignmentFiles) =>
    (await t.ctx.db.select().from(table)).length;
  const stored = (await storedFiles(t, 'assignments')).length;
  return {
    assignments: await count(assignments),
    testCases: await count(testCases),
    files: await count(assignmentFiles),
    stored,
  };
}
