import { z } from 'zod';
import { Id, str, text } from './common.ts';
import { Notebook, NotebookOutput } from './notebooks.ts';

/* Workbooks: notebook configurations, sessions with a Python kernel, saved notebooks (docs/workbooks.md). */

/** A course has at most this many configurations. */
export const MAX_WORKBOOK_CONFIGS = 50;
/** Limits an editor may give a configuration. */
export const WORKBOOK_LIMITS = {
  minLifetimeMinutes: 5,
  maxLifetimeMinutes: 8 * 60,
  maxExtensionMinutes: 8 * 60,
  minMemoryMb: 128,
  maxMemoryMb: 4096,
  minCpuSeconds: 10,
  maxCpuSeconds: 3600,
} as const;
/** The page warns this long before a session ends. */
export const WORKBOOK_WARN_BEFORE_MINUTES = 5;
/** One run of one cell: at most this long, then the kernel interrupts it. */
export const CELL_TIMEOUT_SECONDS = 30;
/** Live sessions (each with a kernel) one person may have at once, across all their courses. */
export const MAX_LIVE_WORKBOOK_SESSIONS = 3;

export const WorkbookConfig = z
  .object({
    id: z.number().int(),
    course: z.number().int(),
    name: z.string(),
    description: z.string(),
    /** Minutes a session lasts when started. */
    lifetime_minutes: z.number().int(),
    /** Minutes a session may be extended by, in all. */
    max_extension_minutes: z.number().int(),
    memory_mb: z.number().int(),
    /** CPU seconds the kernel may use over the session's life. */
    cpu_seconds: z.number().int(),
    /** The notebook a student starts from. */
    starter: Notebook,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'WorkbookConfig' });
export type WorkbookConfig = z.infer<typeof WorkbookConfig>;

export const WorkbookConfigList = z.object({
  count: z.number().int(),
  can_manage: z.boolean(),
  results: z.array(WorkbookConfig),
});
export type WorkbookConfigList = z.infer<typeof WorkbookConfigList>;
export const WorkbookConfigListQuery = z.object({ course: Id });

const configFields = {
  name: text(200),
  description: str().max(5000),
  lifetime_minutes: z
    .number()
    .int()
    .min(WORKBOOK_LIMITS.minLifetimeMinutes)
    .max(WORKBOOK_LIMITS.maxLifetimeMinutes),
  max_extension_minutes: z.number().int().min(0).max(WORKBOOK_LIMITS.maxExtensionMinutes),
  memory_mb: z.number().int().min(WORKBOOK_LIMITS.minMemoryMb).max(WORKBOOK_LIMITS.maxMemoryMb),
  cpu_seconds: z.number().int().min(WORKBOOK_LIMITS.minCpuSeconds).max(WORKBOOK_LIMITS.maxCpuSeconds),
  starter: Notebook,
};
export const WorkbookConfigCreate = z.strictObject({
  course: Id,
  ...configFields,
  description: configFields.description.default(''),
  lifetime_minutes: configFields.lifetime_minutes.default(60),
  max_extension_minutes: configFields.max_extension_minutes.default(60),
  memory_mb: configFields.memory_mb.default(512),
  cpu_seconds: configFields.cpu_seconds.default(600),
  starter: configFields.starter.default({ cells: [] }),
});
export type WorkbookConfigCreate = z.infer<typeof WorkbookConfigCreate>;
export const WorkbookConfigUpdate = z.strictObject({
  name: configFields.name.optional(),
  description: configFields.description.optional(),
  lifetime_minutes: configFields.lifetime_minutes.optional(),
  max_extension_minutes: configFields.max_extension_minutes.optional(),
  memory_mb: configFields.memory_mb.optional(),
  cpu_seconds: configFields.cpu_seconds.optional(),
  starter: configFields.starter.optional(),
});
export type WorkbookConfigUpdate = z.infer<typeof WorkbookConfigUpdate>;

/* ─── Sessions (the workbook API, /api/v1/workbook) ─────────────────────────────────────────── */

export const WorkbookSession = z
  .object({
    workbookId: z.number().int(),
    courseId: z.number().int(),
    configId: z.number().int(),
    userId: z.number().int(),
    /** The notebook this session edits and runs (it outlives the session). */
    notebookId: z.number().int(),
    status: z.enum(['live', 'ended', 'expired']),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    ended_at: z.iso.datetime().nullable(),
    /** Minutes added so far, and the most that may be added in all. */
    extended_minutes: z.number().int(),
    max_extension_minutes: z.number().int(),
    /** The kernel's limits, as the configuration gave them when the session started. */
    memory_mb: z.number().int(),
    cpu_seconds: z.number().int(),
    /**
     * Whether a live kernel host holds its kernel (false before its first run after the host stopped,
     * and after the kernel's death): the next run then starts a fresh one.
     */
    kernel_alive: z.boolean(),
  })
  .meta({ id: 'WorkbookSession' });
export type WorkbookSession = z.infer<typeof WorkbookSession>;

export const WorkbookStart = z.strictObject({ course: Id, config: Id });
export type WorkbookStart = z.infer<typeof WorkbookStart>;
export const WorkbookExtend = z.strictObject({
  minutes: z.number().int().min(1).max(WORKBOOK_LIMITS.maxExtensionMinutes),
});
export type WorkbookExtend = z.infer<typeof WorkbookExtend>;
export const WorkbookIdParams = z.object({ workbookId: Id });
export const WorkbookCourseParams = z.object({ courseId: Id });
export const WorkbookSessionList = z.object({ results: z.array(WorkbookSession) });
export type WorkbookSessionList = z.infer<typeof WorkbookSessionList>;

export const WorkbookExecute = z.strictObject({
  cell_id: str().regex(/^[a-zA-Z0-9-_]{1,64}$/),
  code: str().max(100_000),
});
export type WorkbookExecute = z.infer<typeof WorkbookExecute>;

export const WorkbookExecution = z
  .object({
    cell_id: z.string(),
    /** ok: ran; error: raised (outputs hold the traceback); dead: the kernel ended (see `limit`). */
    status: z.enum(['ok', 'error', 'dead']),
    execution_count: z.number().int().nullable(),
    outputs: z.array(NotebookOutput),
    /** What stopped it: the cell's time limit, the kernel's memory or CPU limit, too much output. */
    limit: z.enum(['memory', 'cpu', 'wall', 'output']).nullable(),
    time_ms: z.number().int(),
    /**
     * The session's kernel was gone (its host stopped, or it had died) and this run started a fresh
     * one: variables of earlier runs are lost; the notebook is kept.
     */
    kernel_restarted: z.boolean(),
  })
  .meta({ id: 'WorkbookExecution' });
export type WorkbookExecution = z.infer<typeof WorkbookExecution>;

export const WorkbookInterruptResult = z
  .object({
    /** A cell was running and was interrupted (it answers with a KeyboardInterrupt error). */
    interrupted: z.boolean(),
  })
  .meta({ id: 'WorkbookInterruptResult' });
export type WorkbookInterruptResult = z.infer<typeof WorkbookInterruptResult>;

/*
 * Between Kadai processes (not part of the public API): an instance forwards a session's kernel calls
 * to the kernel host that owns the kernel, over signed internal requests (docs/workbooks.md, "Kernels").
 */

export const InternalKernelLimits = z.strictObject({
  memory_mb: z.number().int().min(WORKBOOK_LIMITS.minMemoryMb).max(WORKBOOK_LIMITS.maxMemoryMb),
  cpu_seconds: z.number().int().min(WORKBOOK_LIMITS.minCpuSeconds).max(WORKBOOK_LIMITS.maxCpuSeconds),
});
export type InternalKernelLimits = z.infer<typeof InternalKernelLimits>;
/** Start the session's kernel; `fresh`: replace a running one (a restart, or the session moved here). */
export const InternalKernelStart = z.strictObject({ limits: InternalKernelLimits, fresh: z.boolean() });
export type InternalKernelStart = z.infer<typeof InternalKernelStart>;
export const InternalKernelStarted = z.object({ started: z.boolean() });
export const InternalKernelExecute = z.strictObject({
  limits: InternalKernelLimits,
  fresh: z.boolean(),
  code: WorkbookExecute.shape.code,
});
export type InternalKernelExecute = z.infer<typeof InternalKernelExecute>;
export const InternalKernelRun = WorkbookExecution.omit({ cell_id: true });
export type InternalKernelRun = z.infer<typeof InternalKernelRun>;
export const InternalKernelNothing = z.strictObject({});
export const InternalKernelStopped = z.object({ stopped: z.boolean() });

/* ─── Saved notebooks ───────────────────────────────────────────────────────────────────────── */

export const WorkbookNotebook = z
  .object({
    id: z.number().int(),
    courseId: z.number().int(),
    configId: z.number().int(),
    userId: z.number().int(),
    name: z.string(),
    notebook: Notebook,
    /** Increases with every save; a save names the version it changed (409 when someone saved since). */
    version: z.number().int(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'WorkbookNotebook' });
export type WorkbookNotebook = z.infer<typeof WorkbookNotebook>;

export const WorkbookNotebookSave = z.strictObject({ version: z.number().int().min(0), notebook: Notebook });
export type WorkbookNotebookSave = z.infer<typeof WorkbookNotebookSave>;
export const WorkbookNotebookParams = z.object({ notebookId: Id });
export const WorkbookNotebookQuery = z.object({ course: Id, config: Id });
