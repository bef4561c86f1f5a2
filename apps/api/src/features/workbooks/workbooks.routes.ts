import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdParams,
  MAX_LIVE_WORKBOOK_SESSIONS,
  MAX_NOTEBOOK_BYTES,
  WorkbookConfig,
  WorkbookConfigCreate,
  WorkbookConfigList,
  WorkbookConfigListQuery,
  WorkbookConfigUpdate,
  WorkbookCourseParams,
  WorkbookExecute,
  WorkbookExecution,
  WorkbookExtend,
  WorkbookIdParams,
  WorkbookInterruptResult,
  WorkbookNotebook,
  WorkbookNotebookParams,
  WorkbookNotebookQuery,
  WorkbookNotebookSave,
  WorkbookSession,
  WorkbookSessionList,
  WorkbookStart,
  uploadedJson,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as configs from './configs.service.ts';
import type { KernelHost } from './kernel-host.ts';
import * as notebooks from './notebooks.service.ts';
import * as runs from './runs.service.ts';
import * as sessions from './sessions.service.ts';
import { generatedFileHeaders } from '../../lib/downloads.ts';
import { fileResponse } from '../../lib/openapi.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
} as const;
const access = { access: 'user' } as const;
const deleted = z.null().describe('Deleted');

/** `WorkbookConfig/`: what kinds of notebook sessions a course offers (members read, managers write). */
export function registerWorkbookConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['workbooks'];
  const bodyLimit = MAX_NOTEBOOK_BYTES + 64 * 1024;

  api.get(
    '/WorkbookConfig/',
    {
      config: access,
      schema: {
        tags,
        summary: "The course's workbook configurations (members)",
        querystring: WorkbookConfigListQuery,
        response: { 200: WorkbookConfigList, ...errors },
      },
    },
    async (request) => configs.listConfigs(ctx, actorOf(request), request.query.course),
  );
  api.post(
    '/WorkbookConfig/',
    {
      config: access,
      bodyLimit,
      schema: {
        tags,
        summary: 'Add a workbook configuration to a course (editors of the course, staff)',
        body: WorkbookConfigCreate,
        response: { 201: WorkbookConfig, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await configs.createConfig(ctx, actorOf(request), request.body)),
  );
  api.get(
    '/WorkbookConfig/:id/',
    {
      config: access,
      schema: {
        tags,
        summary: 'One workbook configuration (members of its course)',
        params: IdParams,
        response: { 200: WorkbookConfig, ...errors },
      },
    },
    async (request) => configs.getConfig(ctx, actorOf(request), request.params.id),
  );
  api.patch(
    '/WorkbookConfig/:id/',
    {
      config: access,
      bodyLimit,
      schema: {
        tags,
        summary: 'Change a workbook configuration (editors, staff); running sessions keep their limits',
        params: IdParams,
        body: WorkbookConfigUpdate,
        response: { 200: WorkbookConfig, ...errors },
      },
    },
    async (request) => configs.updateConfig(ctx, actorOf(request), request.params.id, request.body),
  );
  api.delete(
    '/WorkbookConfig/:id/',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Delete a workbook configuration with its sessions and the students' notebooks (editors, staff)",
        params: IdParams,
        response: { 204: deleted, ...errors },
      },
    },
    async (request, reply) => {
      await configs.deleteConfig(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The workbook API under `/api/v1/workbook`: sessions with a kernel, and the saved notebooks. */
export function registerWorkbookRoutes(app: FastifyInstance, ctx: AppContext, host: KernelHost): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['workbooks'];

  api.post(
    '/v1/workbook',
    {
      config: access,
      schema: {
        tags,
        summary: 'Open a workbook session: a kernel for the caller in the course (members)',
        description:
          '409 `session_exists` when the caller has a live session in the course, `session_limit` when they ' +
          `have ${MAX_LIVE_WORKBOOK_SESSIONS} live sessions (across courses); 429 when no kernel host has room.`,
        body: WorkbookStart,
        response: { 201: WorkbookSession, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await sessions.startSession(ctx, host, actorOf(request), request.body)),
  );
  api.get(
    '/v1/workbook/course/:courseId',
    {
      config: access,
      schema: {
        tags,
        summary:
          "The caller's sessions in the course, live first (editors and staff also see everyone's live ones)",
        params: WorkbookCourseParams,
        response: { 200: WorkbookSessionList, ...errors },
      },
    },
    async (request) => sessions.listCourseSessions(ctx, actorOf(request), request.params.courseId),
  );
  api.get(
    '/v1/workbook/notebook',
    {
      config: access,
      schema: {
        tags,
        summary: "The caller's notebook of a configuration, made from its starter the first time",
        querystring: WorkbookNotebookQuery,
        response: { 200: WorkbookNotebook, ...errors },
      },
    },
    async (request) =>
      notebooks.myNotebook(ctx, actorOf(request), request.query.course, request.query.config),
  );
  api.put(
    '/v1/workbook/notebook/:notebookId',
    {
      config: access,
      bodyLimit: MAX_NOTEBOOK_BYTES + 64 * 1024,
      schema: {
        tags,
        summary:
          'Save the notebook over the version it was read at (its owner); 409 when saved elsewhere since',
        params: WorkbookNotebookParams,
        body: WorkbookNotebookSave,
        response: { 200: WorkbookNotebook, ...errors },
      },
    },
    async (request) => notebooks.saveNotebook(ctx, actorOf(request), request.params.notebookId, request.body),
  );
  api.get(
    '/v1/workbook/notebook/:notebookId/ipynb',
    {
      config: access,
      schema: {
        tags,
        summary: 'Download the notebook as .ipynb (nbformat 4.5; its owner, editors of the course, staff)',
        params: WorkbookNotebookParams,
        response: { 200: fileResponse('application/x-ipynb+json', 'The notebook'), ...errors },
      },
    },
    async (request, reply) => {
      const file = await notebooks.downloadIpynb(ctx, actorOf(request), request.params.notebookId);
      return reply
        .type('application/x-ipynb+json; charset=utf-8')
        .headers(generatedFileHeaders(file.contentDisposition))
        .send(file.body);
    },
  );
  api.post(
    '/v1/workbook/notebook/:notebookId/ipynb',
    {
      config: access,
      bodyLimit: MAX_NOTEBOOK_BYTES,
      schema: {
        tags,
        summary: "Replace the notebook's cells with an uploaded .ipynb, sent as the JSON body (its owner)",
        params: WorkbookNotebookParams,
        body: uploadedJson().describe('A Jupyter notebook (nbformat 4)'),
        response: { 200: WorkbookNotebook, ...errors },
      },
    },
    async (request) => notebooks.uploadIpynb(ctx, actorOf(request), request.params.notebookId, request.body),
  );
  api.get(
    '/v1/workbook/:workbookId',
    {
      config: access,
      schema: {
        tags,
        summary: 'One session (its owner, editors of the course, staff)',
        params: WorkbookIdParams,
        response: { 200: WorkbookSession, ...errors },
      },
    },
    async (request) => sessions.getSession(ctx, actorOf(request), request.params.workbookId),
  );
  api.delete(
    '/v1/workbook/:workbookId',
    {
      config: access,
      schema: {
        tags,
        summary: 'End a session and its kernel (its owner, editors of the course, staff); the notebook stays',
        params: WorkbookIdParams,
        response: { 204: deleted, ...errors },
      },
    },
    async (request, reply) => {
      await sessions.endSession(ctx, host, actorOf(request), request.params.workbookId);
      return reply.code(204).send(null);
    },
  );
  api.post(
    '/v1/workbook/:workbookId/extend',
    {
      config: access,
      schema: {
        tags,
        summary: 'Extend a live session by some minutes, within its maximum (its owner)',
        params: WorkbookIdParams,
        body: WorkbookExtend,
        response: { 200: WorkbookSession, ...errors },
      },
    },
    async (request) =>
      sessions.extendSession(ctx, actorOf(request), request.params.workbookId, request.body.minutes),
  );
  api.post(
    '/v1/workbook/:workbookId/execute',
    {
      config: { ...access, longRunning: true },
      schema: {
        tags,
        summary: "Run a cell's code in the session's kernel (its owner); state is kept between runs",
        description:
          '`kernel_restarted`: the kernel was gone (its host stopped, or it had died) and this run started a ' +
          'fresh one, so variables of earlier runs are lost.',
        params: WorkbookIdParams,
        body: WorkbookExecute,
        response: { 200: WorkbookExecution, ...errors },
      },
    },
    async (request) => runs.execute(ctx, host, actorOf(request), request.params.workbookId, request.body),
  );
  api.post(
    '/v1/workbook/:workbookId/restart',
    {
      config: access,
      schema: {
        tags,
        summary: 'Restart the kernel: a fresh Python, variables lost (its owner)',
        params: WorkbookIdParams,
        response: { 200: WorkbookSession, ...errors },
      },
    },
    async (request) => runs.restartKernel(ctx, host, actorOf(request), request.params.workbookId),
  );
  api.post(
    '/v1/workbook/:workbookId/interrupt',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Interrupt the running cell (its owner): it stops with KeyboardInterrupt, variables are kept',
        description: '`interrupted` is false when no cell was running.',
        params: WorkbookIdParams,
        response: { 200: WorkbookInterruptResult, ...errors },
      },
    },
    async (request) => runs.interruptKernel(ctx, host, actorOf(request), request.params.workbookId),
  );
}
