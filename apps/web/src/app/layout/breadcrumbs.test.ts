import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Breadcrumbs from './breadcrumbs.ts';

// A registry of this file's own: the app registers a resolver for every parameter when another file
// of the worker renders it (title-resolvers.ts), and this file checks what happens without one.
let buildCrumbs: typeof Breadcrumbs.buildCrumbs;
let registerTitleResolver: typeof Breadcrumbs.registerTitleResolver;
beforeEach(async () => {
  vi.resetModules();
  ({ buildCrumbs, registerTitleResolver } = await import('./breadcrumbs.ts'));
  registerTitleResolver('course_id', async (value) => `Course ${value}`);
});

describe('breadcrumbs', () => {
  it('shows Course > course title > page on a course page', () => {
    expect(buildCrumbs('Forum', { course_id: '4' })).toEqual([
      { kind: 'label', labelKey: 'routes.course', to: '/course' },
      { kind: 'object', param: 'course_id', value: '4', to: '/course/4' },
      { kind: 'label', labelKey: 'routes.forum', to: null },
    ]);
  });

  it('ends at the course title on the course home', () => {
    expect(buildCrumbs('CourseHome', { course_id: '4' })).toEqual([
      { kind: 'label', labelKey: 'routes.course', to: '/course' },
      { kind: 'object', param: 'course_id', value: '4', to: null },
    ]);
  });

  it('links the parent page and names the object when a resolver is registered', () => {
    registerTitleResolver('assignment_id', async (value) => `Assignment ${value}`);
    expect(buildCrumbs('AssignmentDetail', { course_id: '4', assignment_id: '12' })).toEqual([
      { kind: 'label', labelKey: 'routes.course', to: '/course' },
      { kind: 'object', param: 'course_id', value: '4', to: '/course/4' },
      { kind: 'label', labelKey: 'routes.assignment', to: '/course/4/assignment' },
      { kind: 'object', param: 'assignment_id', value: '12', to: null },
    ]);
  });

  it('falls back to the page title when no resolver knows the object', () => {
    const crumbs = buildCrumbs('ForumDetailInCourse', { course_id: '4', forum_record_id: '77' });
    expect(crumbs.at(-1)).toEqual({ kind: 'label', labelKey: 'routes.forumDetail', to: null });
    expect(crumbs.at(-2)).toEqual({ kind: 'label', labelKey: 'routes.forum', to: '/course/4/forum' });
  });

  it('has no trail outside a course', () => {
    expect(buildCrumbs('Course', {})).toEqual([]);
    expect(buildCrumbs('Profile', {})).toEqual([]);
  });
});
