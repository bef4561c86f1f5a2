/**
 * Whether this process can have untrusted code run now: main.ts makes it from the grader in the process
 * (or, with RUN_GRADER=false, from the grader hosts' heartbeats); /api/health and the PyGrade console ask.
 */
export type SandboxProbe = () => Promise<{ ok: boolean; detail: string }>;
