import {
  MAX_WORKBOOK_CONFIGS,
  type CourseRole,
  type WorkbookConfig,
  type WorkbookConfigCreate,
  type WorkbookConfigList,
  type WorkbookConfigUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import * as repo from './workbooks.repo.ts';

/* Workbook configurations (docs/workbooks.md): members read them, editors of the course and staff manage them. */

export function toConfig(row: repo.ConfigRow): WorkbookConfig {
  return {
    id: row.id,
    course: row.courseId,
    name: row.name,
    description: row.description,
    lifetime_minutes: row.lifetimeMinutes,
    max_extension_minutes: row.maxExtensionMinutes,
    memory_mb: row.memoryMb,
    cpu_seconds: row.cpuSeconds,
    starter: row.starter,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listConfigs(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<WorkbookConfigList> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  const rows = await repo.listConfigs(ctx.db, courseId, MAX_WORKBOOK_CONFIGS);
  return { count: rows.length, can_manage: canManageCourse(role), results: rows.map(toConfig) };
}

/** The configuration if the caller is a member of its course (404 otherwise), with their role. */
export async function readableConfig(
  db: Executor,
  actor: Actor,
  id: number,
): Promise<{ config: repo.ConfigRow; role: CourseRole }> {
  const config = await repo.findConfig(db, id);
  if (!config) throw notFound();
  return { config, role: await getCourseRole(db, actor, config.courseId) };
}

async function managedConfig(ctx: AppContext, actor: Actor, id: number): Promise<repo.ConfigRow> {
  const { config, role } = await readableConfig(ctx.db, actor, id);
  if (!canManageCourse(role))
    throw forbidden('Only editors of the course and staff can manage its workbooks.');
  return config;
}

export async function getConfig(ctx: AppContext, actor: Actor, id: number): Promise<WorkbookConfig> {
  return toConfig((await readableConfig(ctx.db, actor, id)).config);
}

export async function createConfig(
  ctx: AppContext,
  actor: Actor,
  input: WorkbookConfigCreate,
): Promise<WorkbookConfig> {
  if (!canManageCourse(await getCourseRole(ctx.db, actor, input.course))) {
    throw forbidden('Only editors of the course and staff can manage its workbooks.');
  }
  if ((await repo.listConfigs(ctx.db, input.course, MAX_WORKBOOK_CONFIGS)).length >= MAX_WORKBOOK_CONFIGS) {
    throw conflict(
      `A course has at most ${MAX_WORKBOOK_CONFIGS} workbook configurations.`,
      'too_many_configs',
    );
  }
  const row = await repo.insertConfig(ctx.db, {
    courseId: input.course,
    name: input.name,
    description: input.description,
    lifetimeMinutes: input.lifetime_minutes,
    maxExtensionMinutes: input.max_extension_minutes,
    memoryMb: input.memory_mb,
    cpuSeconds: input.cpu_seconds,
    starter: input.starter,
  });
  return toConfig(row);
}

export async function updateConfig(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: WorkbookConfigUpdate,
): Promise<WorkbookConfig> {
  await managedConfig(ctx, actor, id);
  const row = await repo.updateConfig(ctx.db, id, {
    name: input.name,
    description: input.description,
    lifetimeMinutes: input.lifetime_minutes,
    maxExtensionMinutes: input.max_extension_minutes,
    memoryMb: input.memory_mb,
    cpuSeconds: input.cpu_seconds,
    starter: input.starter,
  });
  if (!row) throw notFound();
  return toConfig(row);
}

/** Deletes the configuration with its sessions and the students' notebooks of it. */
export async function deleteConfig(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await managedConfig(ctx, actor, id);
  if (!(await repo.deleteConfig(ctx.db, id))) throw notFound();
}
