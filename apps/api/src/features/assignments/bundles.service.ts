import type { FastifyRequest } from 'fastify';
import {
  AssignmentCourseInput,
  BundleImportFields,
  MAX_ATTACHMENT_BYTES,
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_ENTRIES,
  MAX_BUNDLE_UNCOMPRESSED_BYTES,
  type Assignment,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { contentDisposition, contentTypeOf } from '../../lib/downloads.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { newStorageKey } from '../../lib/storage.ts';
import { readUploadedFiles } from '../../lib/uploads.ts';
import { readZip, writeZip, ZipError } from '../../lib/zip.ts';
import { assertEditsCourses, getAssignmentInCourse, requireManager } from './assignment-access.ts';
import { assignmentOut, checkSubmissionRules, insertNewAssignment } from './assignments.service.ts';
import {
  buildBundle,
  bundleEntryLimit,
  bundleLayout,
  invalidBundle,
  parseBundle,
  slugOf,
  type BundleContent,
} from './bundle-format.ts';
import { insertFiles, listFiles, type NewAssignmentFileRow } from './files.repo.ts';
import { deleteStoredFiles } from './files.service.ts';
import { insertTestCase, listTestCases } from './test-cases.repo.ts';
import { newTestCaseFields, pytestFields, testCaseInputOf } from './test-cases.service.ts';
import type { AssignmentForCheck } from './test-file-check.ts';

/*
 * Assignment bundles (docs/assignments.md, "Bundles"): an assignment with its statement, code,
 * attachments and test cases as one .zip, and back.
 */

/** `GET Assignment/{assignment_id}/{course_id}/export/`: managers only (a student who sees it: 403). */
export async function exportBundle(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<{ body: Buffer; contentDisposition: string }> {
  const { access } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(access);
  const a = access.assignment;
  const [tests, files] = await Promise.all([listTestCases(ctx.db, a.id), listFiles(ctx.db, a.id)]);
  const attachments = [];
  for (const file of files) {
    attachments.push({ filename: file.filename, data: await ctx.storage.read(file.storageKey) });
  }
  const body = writeZip(
    buildBundle({
      assignment: {
        title: a.title,
        statement: a.statement,
        starter_code: a.starterCode,
        entry_file: a.entryFile,
        required_files: a.requiredFiles,
        allowed_extensions: a.allowedExtensions,
        max_files: a.maxFiles,
        max_file_bytes: a.maxFileBytes,
        reference_solution: a.referenceSolution,
      },
      attachments,
      testCases: tests.map(testCaseInputOf),
    }),
  );
  return { body, contentDisposition: contentDisposition(`${slugOf(a.title, `assignment-${a.id}`)}.zip`) };
}

const DAY = 24 * 3600_000;

/** 23:59 UTC of the day seven days after `from`. */
function defaultDueDate(from: Date): string {
  const due = new Date(from.getTime() + 7 * DAY);
  due.setUTCHours(23, 59, 0, 0);
  return due.toISOString();
}

/** The course's dates from the import's text fields: opens now, due in a week at 23:59 UTC, not late. */
function courseDates(courseId: number, fields: Record<string, string>, now = new Date()) {
  const given = BundleImportFields.safeParse(fields);
  const issues: Record<string, string[]> = {};
  const dates = given.success
    ? AssignmentCourseInput.safeParse({
        course_id: courseId,
        opens_at: given.data.opens_at ?? now.toISOString(),
        due_at:
          given.data.due_at ?? defaultDueDate(given.data.opens_at ? new Date(given.data.opens_at) : now),
        late_until: given.data.late_until ?? null,
      })
    : given;
  if (dates.success) return dates.data;
  for (const issue of dates.error.issues)
    (issues[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
  throw badRequest('Invalid input.', issues);
}

async function receiveBundle(
  request: FastifyRequest,
): Promise<{ zip: Buffer; fields: Record<string, string> }> {
  const { files, fields } = await readUploadedFiles(request, { maxFiles: 1, maxFileBytes: MAX_BUNDLE_BYTES });
  return { zip: files[0]!.data, fields };
}

function readBundle(zip: Buffer): BundleContent {
  let content: BundleContent;
  try {
    content = parseBundle(
      readZip(zip, {
        maxEntries: MAX_BUNDLE_ENTRIES,
        maxTotalBytes: MAX_BUNDLE_UNCOMPRESSED_BYTES,
        maxEntryBytes: bundleEntryLimit,
        layout: bundleLayout,
      }),
    );
  } catch (error) {
    throw error instanceof ZipError ? invalidBundle(error.message) : error;
  }
  try {
    checkSubmissionRules(content.assignment);
  } catch (error) {
    if (!(error instanceof HttpError) || !error.fields) throw error;
    const [field, messages] = Object.entries(error.fields)[0]!;
    throw invalidBundle(`assignment.json: ${field}: ${messages.join(' ')}`);
  }
  return content;
}

/** A bundle's assignment as a check of its pytest modules sees it, before anything is stored. */
function bundleAssignment(content: BundleContent): AssignmentForCheck {
  const a = content.assignment;
  return {
    entryFile: a.entry_file,
    requiredFiles: a.required_files,
    referenceSolution: a.reference_solution,
    starterCode: a.starter_code,
    attachments: () =>
      Promise.resolve(content.attachments.map((f) => ({ filename: f.filename, content: f.data }))),
  };
}

/**
 * `POST Assignment/import/{course_id}/`: whoever may create assignments in the course. Everything is
 * created in one transaction or nothing is; attachments stored before a failure are removed again.
 */
export async function importBundle(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  request: FastifyRequest,
): Promise<Assignment> {
  // Checked before the body is read, so an upload nobody may make costs nothing.
  await assertEditsCourses(ctx.db, actor, [courseId]);
  const { zip, fields } = await receiveBundle(request);
  const dates = courseDates(courseId, fields);
  const content = readBundle(zip);
  const stored: string[] = [];
  try {
    // Stored before the transaction, never inside it: the store may write through the database
    // (STORAGE=postgres) on connections of its own, which an open transaction would wait on (PGlite
    // has one connection; a pool can run out). The assignment's id is not known yet, so imported
    // attachments live under `assignments/import/`.
    const files: Omit<NewAssignmentFileRow, 'assignmentId'>[] = [];
    for (const file of content.attachments) {
      const key = newStorageKey('assignments/import');
      stored.push(key);
      const contentType = contentTypeOf(file.filename);
      const { size } = await ctx.storage.put(key, file.data, contentType, {
        maxBytes: MAX_ATTACHMENT_BYTES,
      });
      files.push({ filename: file.filename, storageKey: key, size, contentType, createdBy: actor.userId });
    }
    // Each pytest module is checked as an editor's save would check it, before the transaction too.
    const checks: Awaited<ReturnType<typeof pytestFields>>[] = [];
    for (const testCase of content.testCases) {
      checks.push(await pytestFields(ctx, actor.userId, bundleAssignment(content), testCase, null));
    }
    return await ctx.db.transaction(async (tx) => {
      const id = await insertNewAssignment(tx, actor, { ...content.assignment, courses: [dates] });
      await insertFiles(
        tx,
        files.map((file) => ({ ...file, assignmentId: id })),
      );
      for (const [position, testCase] of content.testCases.entries()) {
        await insertTestCase(tx, id, { ...newTestCaseFields(testCase, position), ...checks[position] });
      }
      return assignmentOut(tx, actor, id);
    });
  } catch (error) {
    await deleteStoredFiles(ctx, stored);
    throw error;
  }
}
