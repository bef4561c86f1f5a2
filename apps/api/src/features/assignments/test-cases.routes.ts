import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ReferenceRunRequest,
  ReferenceRunResponse,
  TestCase,
  TestCaseCreate,
  TestCaseItemParams,
  TestCaseList,
  TestCaseParams,
  TestCaseReorder,
  TestCaseUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { errors } from './assignments.routes.ts';
import * as tests from './test-cases.service.ts';

const PATH = '/Assignment/:assignment_id/:course_id/TestCase/';

export function registerTestCaseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['test cases'];

  api.get(
    PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The test cases (students: hidden ones without input, output or script)',
        params: TestCaseParams,
        response: { 200: TestCaseList, ...errors },
      },
    },
    async (request) =>
      tests.listTestCases(ctx, actorOf(request), request.params.assignment_id, request.params.course_id),
  );

  api.post(
    PATH,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Add a test case (its managers)',
        params: TestCaseParams,
        body: TestCaseCreate,
        response: { 201: TestCase, ...errors },
      },
    },
    async (request, reply) => {
      const { assignment_id, course_id } = request.params;
      return reply
        .code(201)
        .send(await tests.createTestCase(ctx, actorOf(request), assignment_id, course_id, request.body));
    },
  );

  api.post(
    `${PATH}reorder/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Put the test cases in a new order (every id once; its managers)',
        params: TestCaseParams,
        body: TestCaseReorder,
        response: { 200: TestCaseList, ...errors },
      },
    },
    async (request) => {
      const { assignment_id, course_id } = request.params;
      return tests.reorderTestCases(ctx, actorOf(request), assignment_id, course_id, request.body);
    },
  );

  api.post(
    `${PATH}run-reference/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Grade a reference solution against the test cases (its managers)',
        params: TestCaseParams,
        body: ReferenceRunRequest,
        response: { 202: ReferenceRunResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { assignment_id, course_id } = request.params;
      return reply
        .code(202)
        .send(await tests.runReference(ctx, actorOf(request), assignment_id, course_id, request.body.code));
    },
  );

  api.get(
    `${PATH}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One test case (students: the student view)',
        params: TestCaseItemParams,
        response: { 200: TestCase, ...errors },
      },
    },
    async (request) => {
      const { assignment_id, course_id, id } = request.params;
      return tests.getTestCase(ctx, actorOf(request), assignment_id, course_id, id);
    },
  );

  api.put(
    `${PATH}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace a test case (fields left out take their defaults; its managers)',
        params: TestCaseItemParams,
        body: TestCaseCreate,
        response: { 200: TestCase, ...errors },
      },
    },
    async (request) => {
      const { assignment_id, course_id, id } = request.params;
      return tests.updateTestCase(ctx, actorOf(request), assignment_id, course_id, id, request.body, true);
    },
  );

  api.patch(
    `${PATH}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change some fields of a test case (its managers)',
        params: TestCaseItemParams,
        body: TestCaseUpdate,
        response: { 200: TestCase, ...errors },
      },
    },
    async (request) => {
      const { assignment_id, course_id, id } = request.params;
      return tests.updateTestCase(ctx, actorOf(request), assignment_id, course_id, id, request.body);
    },
  );

  api.delete(
    `${PATH}:id/`,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete a test case (its managers)',
        params: TestCaseItemParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      const { assignment_id, course_id, id } = request.params;
      await tests.deleteTestCase(ctx, actorOf(request), assignment_id, course_id, id);
      return reply.code(204).send(null);
    },
  );
}
