import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  Submission,
  SubmissionFileList,
  SubmissionFileParams,
  SubmissionIdParams,
  SubmitRequest,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { idempotencyKeyOf } from '../../lib/idempotency.ts';
import { conflictErrors } from './route-errors.ts';
import * as submitting from './submit.service.ts';

/** JSON submissions carry files as text or base64; larger binary files go through FileSubmission. */
export const SUBMIT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

const FILES = '/Submission/:submission_id/FileSubmission/';

export function registerSubmitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['submissions'];

  api.post(
    '/Submission/Submit/',
    {
      config: { access: 'user' },
      bodyLimit: SUBMIT_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Submit code and/or files to an assignment of a course (its members)',
        description:
          'Checked against the assignment: file names, extensions, count (the code counts as the entry ' +
          'file), size per file (413), duplicates, base64. Before opening and after the last accepted ' +
          'moment: 403. Between the due date and the late cut-off: accepted with is_late. At most ' +
          `${submitting.SUBMIT_RATE.max} per assignment per minute (429). Graded at once unless ` +
          '`upload_files_later`. With an `Idempotency-Key` header (1–200 printable ASCII characters), a ' +
          'retry of a submit already made with that key answers 201 with that submission and ' +
          '`Idempotent-Replayed: true`, creating nothing; the same key with another body answers 422 ' +
          '`idempotency_key_reused`.',
        body: SubmitRequest,
        response: { 201: Submission, 413: ErrorBody, 422: ErrorBody, 429: ErrorBody, ...conflictErrors },
      },
    },
    async (request, reply) => {
      const made = await submitting.submit(ctx, actorOf(request), request.body, idempotencyKeyOf(request));
      if (made.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(made.submission);
    },
  );

  api.get(
    FILES,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The files of a submission, with short-lived download URLs',
        params: SubmissionIdParams,
        response: { 200: SubmissionFileList, ...conflictErrors },
      },
    },
    async (request) => submitting.listFiles(ctx, actorOf(request), request.params.submission_id),
  );

  api.post(
    FILES,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Add files to one’s own Pending submission (multipart/form-data)',
        description:
          'Only the author, only while Pending (409 otherwise; queue it afterwards with ' +
          '`POST Score/{submission_id}/submission_specific/`). The limits of the assignment apply; a ' +
          'name already in the submission answers 409. Only within the dates of Submit (403 `not_open` / ' +
          '`closed`); lateness is decided when it is queued.',
        consumes: ['multipart/form-data'],
        params: SubmissionIdParams,
        response: { 201: SubmissionFileList, 413: ErrorBody, 415: ErrorBody, ...conflictErrors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await submitting.addFiles(ctx, actorOf(request), request.params.submission_id, request)),
  );

  api.delete(
    `${FILES}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Remove a file from one’s own Pending submission',
        params: SubmissionFileParams,
        response: { 204: z.null().describe('Deleted'), ...conflictErrors },
      },
    },
    async (request, reply) => {
      await submitting.deleteFile(ctx, actorOf(request), request.params.submission_id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
