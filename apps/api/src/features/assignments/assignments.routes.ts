import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Assignment,
  AssignmentCourseDetail,
  AssignmentCreate,
  AssignmentInCourseList,
  AssignmentList,
  AssignmentListQuery,
  AssignmentReplace,
  AssignmentUpdate,
  CourseIdQuery,
  CourseSpecificQuery,
  ErrorBody,
  IdParams,
  TotalScore,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as assignments from './assignments.service.ts';
import * as lists from './assignment-lists.service.ts';

export const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;

export function registerAssignmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['assignments'];

  api.get(
    '/Assignment/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Assignments the caller may see (students: opened ones of their courses)',
        querystring: AssignmentListQuery,
        response: { 200: AssignmentList, ...errors },
      },
    },
    async (request) => assignments.listAssignments(ctx, actorOf(request), request.query),
  );

  api.post(
    '/Assignment/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Create an assignment in courses the caller edits',
        body: AssignmentCreate,
        response: { 201: Assignment, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await assignments.createAssignment(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/Assignment/CourseSpecific/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "One course's assignments with the caller's own submission figures",
        querystring: CourseSpecificQuery,
        response: { 200: AssignmentInCourseList, ...errors },
      },
    },
    async (request) => lists.listCourseAssignments(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Assignment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One assignment (editor view for its managers, student view otherwise)',
        params: IdParams,
        response: { 200: Assignment, ...errors },
      },
    },
    async (request) => assignments.getAssignment(ctx, actorOf(request), request.params.id),
  );

  api.put(
    '/Assignment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace an assignment, its course list included (its managers)',
        params: IdParams,
        body: AssignmentReplace,
        response: { 200: Assignment, 409: ErrorBody, ...errors },
      },
    },
    async (request) => assignments.updateAssignment(ctx, actorOf(request), request.params.id, request.body),
  );

  api.patch(
    '/Assignment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change some fields of an assignment; `courses` replaces the list (its managers)',
        params: IdParams,
        body: AssignmentUpdate,
        response: { 200: Assignment, 409: ErrorBody, ...errors },
      },
    },
    async (request) => assignments.updateAssignment(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/Assignment/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete an assignment (its managers; with student submissions: staff only)',
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), 409: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      await assignments.deleteAssignment(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/Assignment/:id/CourseSpecificDetail/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The assignment in one course: dates, attachments, whether it accepts submissions',
        params: IdParams,
        querystring: CourseIdQuery,
        response: { 200: AssignmentCourseDetail, ...errors },
      },
    },
    async (request) =>
      lists.getCourseDetail(ctx, actorOf(request), request.params.id, request.query.course_id),
  );

  api.get(
    '/Assignment/:id/total_score/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The caller's score: their final submission's, else their best",
        params: IdParams,
        querystring: CourseIdQuery,
        response: { 200: TotalScore, ...errors },
      },
    },
    async (request) => lists.getTotalScore(ctx, actorOf(request), request.params.id, request.query.course_id),
  );
}
