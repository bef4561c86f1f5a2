import { z } from 'zod';
import { Id, IsoDate } from './common.ts';
import { AssignmentCreate } from './assignments.ts';
import { Comparison, TestCaseKind, Visibility } from './test-cases.ts';

/* ─── Assignment bundles (export and import as one .zip; docs/assignments.md, "Bundles") ──────── */

export const BUNDLE_FORMAT_VERSION = 1;
/** The uploaded .zip itself (413 `too_large` over it). */
export const MAX_BUNDLE_BYTES = 60 * 1024 * 1024;
/** Every entry of a bundle inflated, added up: what a zip bomb runs into. */
export const MAX_BUNDLE_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
/** Entries of a bundle, folders included. */
export const MAX_BUNDLE_ENTRIES = 1000;

/** `assignment.json`: the assignment without its texts (files of their own) and without course dates. */
export const BundleAssignment = z.strictObject({
  format_version: z.literal(BUNDLE_FORMAT_VERSION),
  title: AssignmentCreate.shape.title,
  entry_file: AssignmentCreate.shape.entry_file,
  required_files: AssignmentCreate.shape.required_files,
  allowed_extensions: AssignmentCreate.shape.allowed_extensions,
  max_files: AssignmentCreate.shape.max_files,
  max_file_bytes: AssignmentCreate.shape.max_file_bytes,
});
export type BundleAssignment = z.infer<typeof BundleAssignment>;

/**
 * `tests/NN-<slug>/test.json`: a test case without its texts, which are files beside it (`input.txt`,
 * `expected.txt`, `driver.py`, `check.py`, the pytest module under `test_file_name`). With those merged
 * in, it must pass `TestCaseCreate`.
 */
export const BundleTestCase = z.object({
  name: z.string(),
  kind: TestCaseKind,
  /** Left out when a pytest test's points follow its tests (`points_auto`). */
  points: z.number().int().optional(),
  points_auto: z.boolean().optional(),
  visibility: Visibility,
  time_limit_ms: z.number().int(),
  memory_limit_mb: z.number().int(),
  comparison: Comparison,
  tolerance: z.number(),
  test_file_name: z.string(),
});
export type BundleTestCase = z.infer<typeof BundleTestCase>;

export const AssignmentBundleParams = z.object({ assignment_id: Id, course_id: Id });
export const BundleImportParams = z.object({ course_id: Id });

/**
 * The text fields of an import (multipart, beside the .zip): the assignment's dates in the course.
 * Defaults: opens now; due seven days after it opens, at 23:59 UTC; no late period.
 */
export const BundleImportFields = z.object({
  opens_at: IsoDate.optional(),
  due_at: IsoDate.optional(),
  late_until: IsoDate.optional(),
});
export type BundleImportFields = z.infer<typeof BundleImportFields>;
