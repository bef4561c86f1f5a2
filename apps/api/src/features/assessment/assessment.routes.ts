import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AssessmentExistence,
  AssessmentTable,
  AssignmentHistogramParams,
  CourseIdParams,
  CourseQuery,
  ErrorBody,
  Feedback,
  FeedbackCreate,
  FeedbackList,
  FeedbackUpdate,
  Histogram,
  IdParams,
  ParticipantQuery,
  Skill,
  SkillCatalogue,
  SkillCreate,
  SkillHistogramParams,
  SkillItemsUpdate,
  SkillList,
  SkillUpdate,
  StudentAnalysis,
  StudentAnalysisQuery,
  StudentParams,
  Workshop,
  WorkshopCreate,
  WorkshopList,
  WorkshopUpdate,
} from '@kadai/contracts';
import { z } from 'zod';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as analysis from './assessment.service.ts';
import * as participation from './participation.service.ts';
import * as skills from './skills.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const config = { access: 'user' } as const;
const tags = ['assessment'];

/** `assessment/`: the analysis of spec §7, and the skills, feedback and workshops behind it. */
export function registerAssessmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/assessment/Existence/Course/:course_id',
    {
      config,
      schema: {
        tags,
        summary: 'Whether the course has assessment analysis: switched on, and a skill tagged (members)',
        params: CourseIdParams,
        response: { 200: AssessmentExistence, ...errors },
      },
    },
    async (request) => analysis.existence(ctx, actorOf(request), request.params.course_id),
  );

  api.get(
    '/assessment/:course_id',
    {
      config,
      schema: {
        tags,
        summary: 'Every student × skill, assignment and quiz of the course (editors of the course, staff)',
        params: CourseIdParams,
        response: { 200: AssessmentTable, ...errors },
      },
    },
    async (request) => analysis.courseTable(ctx, actorOf(request), request.params.course_id),
  );

  api.get(
    '/assessment/:course_id/:user_id',
    {
      config,
      schema: {
        tags,
        summary: "One student's analysis, skills of one type when asked (the student, editors, staff)",
        params: StudentParams,
        querystring: StudentAnalysisQuery,
        response: { 200: StudentAnalysis, ...errors },
      },
    },
    async (request) =>
      analysis.studentAnalysis(
        ctx,
        actorOf(request),
        request.params.course_id,
        request.params.user_id,
        request.query.skill_type,
      ),
  );

  api.get(
    '/assessment/histogram/assignment/:course_id/:user_id/:assignment_id',
    {
      config,
      schema: {
        tags,
        summary: "The class's distribution of an assignment, with the student's bin (no identities)",
        params: AssignmentHistogramParams,
        response: { 200: Histogram, ...errors },
      },
    },
    async (request) => analysis.assignmentHistogram(ctx, actorOf(request), request.params),
  );

  api.get(
    '/assessment/histogram/skill/:course_id/:user_id/:skill_name',
    {
      config,
      schema: {
        tags,
        summary: "The class's distribution of a skill, with the student's bin (no identities)",
        params: SkillHistogramParams,
        response: { 200: Histogram, ...errors },
      },
    },
    async (request) => analysis.skillHistogram(ctx, actorOf(request), request.params),
  );

  registerSkillRoutes(app, ctx);
  registerParticipationRoutes(app, ctx);
}

function registerSkillRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const skillTags = ['assessment'];

  api.get(
    '/assessment/Skill/',
    {
      config,
      schema: {
        tags: skillTags,
        summary: "The course's skills with their items (editors of the course, staff)",
        querystring: CourseQuery,
        response: { 200: SkillList, ...errors },
      },
    },
    async (request) => skills.listSkills(ctx, actorOf(request), request.query.course),
  );

  api.get(
    '/assessment/Skill/catalogue',
    {
      config,
      schema: {
        tags: skillTags,
        summary: 'What may be tagged: assignments with test cases, quizzes with questions (editors, staff)',
        querystring: CourseQuery,
        response: { 200: SkillCatalogue, ...errors },
      },
    },
    async (request) => skills.catalogue(ctx, actorOf(request), request.query.course),
  );

  api.post(
    '/assessment/Skill/',
    {
      config,
      schema: {
        tags: skillTags,
        summary: 'Add a skill to the course (editors, staff)',
        body: SkillCreate,
        response: { 201: Skill, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await skills.createSkill(ctx, actorOf(request), request.body)),
  );

  api.patch(
    '/assessment/Skill/:id/',
    {
      config,
      schema: {
        tags: skillTags,
        summary: 'Rename a skill or change its type (editors, staff)',
        params: IdParams,
        body: SkillUpdate,
        response: { 200: Skill, ...errors },
      },
    },
    async (request) => skills.updateSkill(ctx, actorOf(request), request.params.id, request.body),
  );

  api.put(
    '/assessment/Skill/:id/items',
    {
      config,
      schema: {
        tags: skillTags,
        summary: 'Replace the items tagged with the skill (editors, staff)',
        params: IdParams,
        body: SkillItemsUpdate,
        response: { 200: Skill, ...errors },
      },
    },
    async (request) => skills.setItems(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/assessment/Skill/:id/',
    {
      config,
      schema: {
        tags: skillTags,
        summary: 'Delete a skill; its feedback and workshops keep their text (editors, staff)',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await skills.deleteSkill(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

function registerParticipationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/assessment/Feedback/',
    {
      config,
      schema: {
        tags,
        summary: 'Feedback to students, newest first (editors, staff; a student their own)',
        querystring: ParticipantQuery,
        response: { 200: FeedbackList, ...errors },
      },
    },
    async (request) => participation.listFeedback(ctx, actorOf(request), request.query),
  );

  api.post(
    '/assessment/Feedback/',
    {
      config,
      schema: {
        tags,
        summary: 'Write feedback to a student of the course (editors, staff)',
        body: FeedbackCreate,
        response: { 201: Feedback, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await participation.createFeedback(ctx, actorOf(request), request.body)),
  );

  api.patch(
    '/assessment/Feedback/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'Change the text of feedback (editors, staff)',
        params: IdParams,
        body: FeedbackUpdate,
        response: { 200: Feedback, ...errors },
      },
    },
    async (request) =>
      participation.updateFeedback(ctx, actorOf(request), request.params.id, request.body.body),
  );

  api.delete(
    '/assessment/Feedback/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete feedback (editors, staff)',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await participation.deleteFeedback(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/assessment/Workshop/',
    {
      config,
      schema: {
        tags,
        summary: 'Workshops of the course, latest first (editors, staff; a student those they take part in)',
        querystring: ParticipantQuery,
        response: { 200: WorkshopList, ...errors },
      },
    },
    async (request) => participation.listWorkshops(ctx, actorOf(request), request.query),
  );

  api.post(
    '/assessment/Workshop/',
    {
      config,
      schema: {
        tags,
        summary: 'Plan a workshop and invite students of the course (editors, staff)',
        body: WorkshopCreate,
        response: { 201: Workshop, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await participation.createWorkshop(ctx, actorOf(request), request.body)),
  );

  api.patch(
    '/assessment/Workshop/:id/',
    {
      config,
      schema: {
        tags,
        summary:
          'Change a workshop; `participants` replaces who is invited, attended or absent (editors, staff)',
        params: IdParams,
        body: WorkshopUpdate,
        response: { 200: Workshop, ...errors },
      },
    },
    async (request) => participation.updateWorkshop(ctx, actorOf(request), request.params.id, request.body),
  );

  api.delete(
    '/assessment/Workshop/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a workshop (editors, staff)',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await participation.deleteWorkshop(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
