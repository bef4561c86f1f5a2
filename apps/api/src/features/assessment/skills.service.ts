import {
  MAX_SKILLS_PER_COURSE,
  type Skill,
  type SkillCatalogue,
  type SkillCreate,
  type SkillItemsUpdate,
  type SkillList,
  type SkillUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { UNIQUE_VIOLATION, sqlStateOf } from '../../lib/sql-state.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import * as repo from './skills.repo.ts';

/* A course's skills and the items tagged with them: editors of the course and staff only (students 403). */

async function requireManager(db: Executor, actor: Actor, courseId: number): Promise<void> {
  if (!canManageCourse(await getCourseRole(db, actor, courseId))) {
    throw forbidden('Only editors of the course and staff can manage its skills.');
  }
}

async function managedSkill(db: Executor, actor: Actor, id: number): Promise<repo.SkillRow> {
  const skill = await repo.findSkill(db, id);
  if (!skill) throw notFound();
  await requireManager(db, actor, skill.courseId);
  return skill;
}

function toSkill(row: repo.SkillRow, items: repo.ItemRow[]): Skill {
  const mine = items.filter((i) => i.skillId === row.id);
  const ids = (pick: (i: repo.ItemRow) => number | null) => mine.flatMap((i) => pick(i) ?? []);
  return {
    id: row.id,
    course: row.courseId,
    name: row.name,
    skill_type: row.skillType,
    description: row.description,
    items: {
      assignments: ids((i) => i.assignmentId),
      test_cases: ids((i) => i.testCaseId),
      quiz_questions: ids((i) => i.quizQuestionId),
    },
  };
}

const duplicateName = () =>
  conflict('The course already has a skill of this name.', 'duplicate', { name: ['Already in use.'] });

async function unique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlStateOf(error) === UNIQUE_VIOLATION) throw duplicateName();
    throw error;
  }
}

export async function listSkills(ctx: AppContext, actor: Actor, courseId: number): Promise<SkillList> {
  await requireManager(ctx.db, actor, courseId);
  const rows = await repo.listSkills(ctx.db, courseId);
  const items = await repo.itemsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { results: rows.map((r) => toSkill(r, items)) };
}

export async function catalogue(ctx: AppContext, actor: Actor, courseId: number): Promise<SkillCatalogue> {
  await requireManager(ctx.db, actor, courseId);
  return repo.catalogue(ctx.db, courseId);
}

export async function createSkill(ctx: AppContext, actor: Actor, input: SkillCreate): Promise<Skill> {
  await requireManager(ctx.db, actor, input.course);
  if ((await repo.countSkills(ctx.db, input.course)) >= MAX_SKILLS_PER_COURSE) {
    throw conflict(`A course has at most ${MAX_SKILLS_PER_COURSE} skills.`, 'limit');
  }
  const row = await unique(() =>
    repo.insertSkill(ctx.db, {
      courseId: input.course,
      name: input.name,
      skillType: input.skill_type,
      description: input.description,
    }),
  );
  return toSkill(row, []);
}

export async function updateSkill(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: SkillUpdate,
): Promise<Skill> {
  await managedSkill(ctx.db, actor, id);
  const row = await unique(() =>
    repo.updateSkill(ctx.db, id, {
      name: input.name,
      skillType: input.skill_type,
      description: input.description,
    }),
  );
  return toSkill(row, await repo.itemsOf(ctx.db, [id]));
}

export async function deleteSkill(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await managedSkill(ctx.db, actor, id);
  await repo.deleteSkill(ctx.db, id);
}

/** Replaces the skill's items; every id must be of the skill's course, else 400 naming the strangers. */
export async function setItems(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: SkillItemsUpdate,
): Promise<Skill> {
  const skill = await managedSkill(ctx.db, actor, id);
  const wanted = {
    assignments: [...new Set(input.assignments)],
    testCases: [...new Set(input.test_cases)],
    quizQuestions: [...new Set(input.quiz_questions)],
  };
  const found = await repo.itemsInCourse(ctx.db, skill.courseId, wanted);
  const fields: Record<string, string[]> = {};
  const check = (field: string, ids: number[], known: Set<number>) => {
    const strangers = ids.filter((i) => !known.has(i));
    if (strangers.length > 0) fields[field] = [`Not in this course: ${strangers.join(', ')}.`];
  };
  check('assignments', wanted.assignments, found.assignments);
  check('test_cases', wanted.testCases, found.testCases);
  check('quiz_questions', wanted.quizQuestions, found.quizQuestions);
  if (Object.keys(fields).length > 0) throw badRequest('Some items are not in the course.', fields);
  await ctx.db.transaction((tx) => repo.replaceItems(tx, id, wanted));
  return toSkill(skill, await repo.itemsOf(ctx.db, [id]));
}
