export * from './common.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './courses.ts';
export * from './health.ts';
export * from './assignments.ts';
export * from './submissions.ts';
