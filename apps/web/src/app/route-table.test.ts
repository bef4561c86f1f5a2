import { describe, expect, it } from 'vitest';
import { isValidElement } from 'react';
import type { RouteObject } from 'react-router';
import { RequireAuth } from './guards.tsx';
import enUS from '../i18n/en-US.json';
import ja from '../i18n/ja.json';
import { routeNameOf } from './layout/useDocumentTitle.ts';
import { ROUTES, ROUTE_NAMES, pathTo, type RouteName } from '../routes/route-table.ts';
import { appRoutes } from './router.tsx';

/** Spec §2, as written there (the spec's `{param}` written `:param` as react-router spells it). */
const SPEC: Record<RouteName, { path: string; signIn: boolean }> = {
  Login: { path: '/login', signIn: false },
  SetPassword: { path: '/set-password', signIn: false },
  PasswordChange: { path: '/password-change', signIn: false },
  About: { path: '/about', signIn: false },
  Profile: { path: '/profile/:userId?', signIn: true },
  Course: { path: '/course', signIn: true },
  Workbook: { path: '/course/:course_id/workbook', signIn: true },
  Calendar: { path: '/course/:course_id/calendar', signIn: true },
  Assignment: { path: '/course/:course_id/assignment', signIn: true },
  Assessment: { path: '/course/:course_id/assessment', signIn: true },
  AssessmentDetail: { path: '/course/:course_id/assessment/:user_id', signIn: true },
  AssignmentDetail: { path: '/course/:course_id/assignment/:assignment_id', signIn: true },
  Submission: { path: '/course/:course_id/submission', signIn: true },
  SubmissionDetail: { path: '/course/:course_id/submission/:submission_id', signIn: true },
  Forum: { path: '/course/:course_id/forum', signIn: true },
  ForumDetailInCourse: { path: '/course/:course_id/forum/:forum_record_id', signIn: true },
  Settings: { path: '/course/:course_id/settings', signIn: true },
  QuizList: { path: '/course/:course_id/quizzes', signIn: true },
  QuizDetailV2: { path: '/course/:course_id/quizzes/:quiz_id/quiz-courses/:quiz_course_id', signIn: true },
  QuizSubmissionDetail: {
    path: '/course/:course_id/quizzes/:quiz_id/quiz-submissions/:quiz_submission_id',
    signIn: true,
  },
  TestCase: { path: '/course/:course_id/testcase/:assignment_id', signIn: true },
  Video: { path: '/course/:course_id/video', signIn: true },
  VideoDetail: { path: '/course/:course_id/:platform/:video_url', signIn: true },
  PrivacyPolicy: { path: '/privacy-policy', signIn: false },
  Home: { path: '/', signIn: false },
  // Issue 21: a page of the app behind sign-in (spec §2's separate page was open to everyone).
  PyGrade: { path: '/pygrade/', signIn: true },
  NotFound: { path: '*', signIn: true },
  // Beyond spec §2 (issue 7): self-registration and the staff outbox.
  Register: { path: '/register', signIn: false },
  VerifyEmail: { path: '/verify-email', signIn: false },
  MailOutbox: { path: '/mail/outbox', signIn: true },
  // Beyond spec §2 (issue 21): the course's members, for its editors and staff.
  Members: { path: '/course/:course_id/members', signIn: true },
  Gradebook: { path: '/course/:course_id/gradebook', signIn: true },
  // Beyond spec §2 (issue 21 §2): per-student extensions, for editors and staff.
  Extensions: { path: '/course/:course_id/extensions', signIn: true },
  // Beyond spec §2 (issue 21): the course's home, where `/course/{id}` used to redirect to Assignment.
  CourseHome: { path: '/course/:course_id', signIn: true },
  // Beyond spec §2 (issue 37): a university sign-in's landing page, and the staff's sign-in settings.
  SsoLogin: { path: '/login/sso', signIn: false },
  SignInSettings: { path: '/admin/sign-in', signIn: true },
  // Beyond spec §2 (issue 38): the staff's LMS platforms, the landing inside the LMS's frame (before
  // a session exists), linking an LMS course and the deep-linking picker.
  LtiSettings: { path: '/admin/lti', signIn: true },
  LtiLaunch: { path: '/lti', signIn: false },
  LtiContext: { path: '/lti/context/:context_id', signIn: true },
  LtiDeepLink: { path: '/lti/deep-link/:deep_link_id', signIn: true },
  // Beyond spec §2 (issue 39): comparing a submission with another one or the reference solution.
  SubmissionCompare: { path: '/course/:course_id/submission/:submission_id/compare', signIn: true },
  // Beyond spec §2 (issue 39): the teacher's review, for editors and staff.
  Rubric: { path: '/course/:course_id/assignment/:assignment_id/rubric', signIn: true },
  Grading: { path: '/course/:course_id/assignment/:assignment_id/grading', signIn: true },
  GradeSubmission: {
    path: '/course/:course_id/assignment/:assignment_id/grading/:submission_id',
    signIn: true,
  },
  RegradeRequests: { path: '/course/:course_id/regrade-requests', signIn: true },
  // Beyond spec §2 (issue 39): an assignment's similarity report, for editors and staff.
  SimilarityReport: { path: '/course/:course_id/assignment/:assignment_id/similarity', signIn: true },
  // Beyond spec §2 (issue 40): the reader's notifications and their settings, and an e-mail's
  // unsubscribe link (no sign-in).
  Notifications: { path: '/notifications', signIn: true },
  NotificationSettings: { path: '/notifications/settings', signIn: true },
  Unsubscribe: { path: '/unsubscribe', signIn: false },
};

function lookup(tree: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? Reflect.get(node, part) : undefined),
      tree,
    );
}

/** Every registered route with its handle, and whether a RequireAuth layout encloses it. */
function registered(routes: RouteObject[], guarded = false): { name: RouteName; guarded: boolean }[] {
  return routes.flatMap((route) => {
    const isGuard = isValidElement(route.element) && route.element.type === RequireAuth;
    const name = routeNameOf(route.handle);
    const own = name ? [{ name, guarded }] : [];
    return [...own, ...registered(route.children ?? [], guarded || isGuard)];
  });
}

describe('route table', () => {
  it('has every route of spec §2 with its path and sign-in rule', () => {
    expect([...ROUTE_NAMES].sort()).toEqual(Object.keys(SPEC).sort());
    for (const name of ROUTE_NAMES) {
      expect({ name, path: ROUTES[name].path, signIn: ROUTES[name].signIn }).toEqual({ name, ...SPEC[name] });
    }
  });

  it('gives every route a title in both languages', () => {
    for (const name of ROUTE_NAMES) {
      const key = ROUTES[name].titleKey;
      expect(typeof lookup(enUS, key), `${name} → ${key} in en-US`).toBe('string');
      expect(typeof lookup(ja, key), `${name} → ${key} in ja`).toBe('string');
    }
  });

  it('registers every route in the router, behind sign-in exactly when the spec says', () => {
    const routes = registered(appRoutes);
    expect(routes.map((r) => r.name).sort()).toEqual([...ROUTE_NAMES].sort());
    for (const route of routes) {
      expect({ name: route.name, guarded: route.guarded }).toEqual({
        name: route.name,
        guarded: SPEC[route.name].signIn,
      });
    }
  });

  it('builds paths from names', () => {
    expect(pathTo('Assignment', { course_id: 3 })).toBe('/course/3/assignment');
    expect(pathTo('CourseHome', { course_id: 3 })).toBe('/course/3');
    expect(pathTo('Profile')).toBe('/profile');
    expect(pathTo('Profile', { userId: 9 })).toBe('/profile/9');
  });
});
