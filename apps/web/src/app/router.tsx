import { type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { setNavigator } from '../api/client.ts';
import type { RouteGuard } from './guards.tsx';
import { AssessmentDetailGuard, AssessmentGuard } from '../features/assessment/AssessmentGuard.tsx';
import { RequireAuth } from './guards.tsx';
import { CourseLayout } from './layout/CourseLayout.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import type { RouteHandle } from './layout/useDocumentTitle.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { PyGradeGuard } from '../features/pygrade/PyGradeGuard.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { ROUTES, type RouteName } from './route-table.ts';
import { lazyComponent } from '../ui/lazyComponent.ts';

// Pages load on demand so the first visit downloads only the shell and the page it opens.
const LoginPage = lazyComponent(() =>
  import('../features/auth/LoginPage.tsx').then((m) => ({ default: m.LoginPage })),
);
const SetPasswordPage = lazyComponent(() =>
  import('../features/auth/SetPasswordPage.tsx').then((m) => ({ default: m.SetPasswordPage })),
);
const PasswordChangePage = lazyComponent(() =>
  import('../features/auth/PasswordChangePage.tsx').then((m) => ({ default: m.PasswordChangePage })),
);
const RegisterPage = lazyComponent(() =>
  import('../features/auth/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })),
);
const VerifyEmailPage = lazyComponent(() =>
  import('../features/auth/VerifyEmailPage.tsx').then((m) => ({ default: m.VerifyEmailPage })),
);
const OutboxPage = lazyComponent(() =>
  import('../features/mail/OutboxPage.tsx').then((m) => ({ default: m.OutboxPage })),
);
const AboutPage = lazyComponent(() =>
  import('../features/about/AboutPage.tsx').then((m) => ({ default: m.AboutPage })),
);
const PrivacyPolicyPage = lazyComponent(() =>
  import('../features/about/PrivacyPolicyPage.tsx').then((m) => ({ default: m.PrivacyPolicyPage })),
);
const ProfilePage = lazyComponent(() =>
  import('../features/users/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })),
);
const CourseListPage = lazyComponent(() =>
  import('../features/courses/CourseListPage.tsx').then((m) => ({ default: m.CourseListPage })),
);
const SettingsPage = lazyComponent(() =>
  import('../features/courses/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })),
);
const MembersPage = lazyComponent(() =>
  import('../features/courses/MembersPage.tsx').then((m) => ({ default: m.MembersPage })),
);
const GradebookPage = lazyComponent(() =>
  import('../features/assessment/GradebookPage.tsx').then((m) => ({ default: m.GradebookPage })),
);
const ExtensionsPage = lazyComponent(() =>
  import('../features/extensions/ExtensionsPage.tsx').then((m) => ({ default: m.ExtensionsPage })),
);
const AssignmentListPage = lazyComponent(() =>
  import('../features/assignments/AssignmentListPage.tsx').then((m) => ({ default: m.AssignmentListPage })),
);
const AssignmentDetailPage = lazyComponent(() =>
  import('../features/assignments/AssignmentDetailPage.tsx').then((m) => ({
    default: m.AssignmentDetailPage,
  })),
);
const TestCasePage = lazyComponent(() =>
  import('../features/assignments/TestCasePage.tsx').then((m) => ({ default: m.TestCasePage })),
);
const SubmissionListPage = lazyComponent(() =>
  import('../features/submissions/SubmissionListPage.tsx').then((m) => ({ default: m.SubmissionListPage })),
);
const SubmissionDetailPage = lazyComponent(() =>
  import('../features/submissions/SubmissionDetailPage.tsx').then((m) => ({
    default: m.SubmissionDetailPage,
  })),
);
const CalendarPage = lazyComponent(() =>
  import('../features/events/CalendarPage.tsx').then((m) => ({ default: m.CalendarPage })),
);
const QuizListPage = lazyComponent(() =>
  import('../features/quizzes/QuizListPage.tsx').then((m) => ({ default: m.QuizListPage })),
);
const QuizDetailPage = lazyComponent(() =>
  import('../features/quizzes/QuizDetailPage.tsx').then((m) => ({ default: m.QuizDetailPage })),
);
const QuizSubmissionDetailPage = lazyComponent(() =>
  import('../features/quizzes/QuizSubmissionDetailPage.tsx').then((m) => ({
    default: m.QuizSubmissionDetailPage,
  })),
);
const ForumPage = lazyComponent(() =>
  import('../features/forum/ForumPage.tsx').then((m) => ({ default: m.ForumPage })),
);
const ForumDetailPage = lazyComponent(() =>
  import('../features/forum/ForumDetailPage.tsx').then((m) => ({ default: m.ForumDetailPage })),
);

const VideoPage = lazyComponent(() =>
  import('../features/videos/VideoPage.tsx').then((m) => ({ default: m.VideoPage })),
);
const VideoDetailPage = lazyComponent(() =>
  import('../features/videos/VideoDetailPage.tsx').then((m) => ({ default: m.VideoDetailPage })),
);
const WorkbookPage = lazyComponent(() =>
  import('../features/workbooks/WorkbookPage.tsx').then((m) => ({ default: m.WorkbookPage })),
);
const AssessmentPage = lazyComponent(() =>
  import('../features/assessment/AssessmentPage.tsx').then((m) => ({ default: m.AssessmentPage })),
);
const PyGradePage = lazyComponent(() =>
  import('../features/pygrade/PyGradePage.tsx').then((m) => ({ default: m.PyGradePage })),
);
const CourseHomePage = lazyComponent(() =>
  import('../features/overview/CourseHomePage.tsx').then((m) => ({ default: m.CourseHomePage })),
);
const AssessmentDetailPage = lazyComponent(() =>
  import('../features/assessment/AssessmentDetailPage.tsx').then((m) => ({
    default: m.AssessmentDetailPage,
  })),
);

/** A route of the table: its path relative to `base`, its handle (title, breadcrumbs) and its page. */
function route(
  name: RouteName,
  element: ReactNode,
  options: { base?: string; guard?: RouteGuard } = {},
): RouteObject {
  const fullPath = ROUTES[name].path;
  const path = options.base ? fullPath.slice(options.base.length + 1) : fullPath;
  const Guard = options.guard;
  return {
    path,
    element: Guard ? <Guard>{element}</Guard> : element,
    handle: { route: name } satisfies RouteHandle,
  };
}

const COURSE_BASE = '/course/:course_id';

/** The parts of a course; a part that needs its own guard (Assessment) passes `guard`. */
function courseRoutes(): RouteObject[] {
  return [
    // The course's home (issue 21): `/course/{id}` itself, no longer a redirect to its assignments.
    { index: true, element: <CourseHomePage />, handle: { route: 'CourseHome' } satisfies RouteHandle },
    route('Workbook', <WorkbookPage />, { base: COURSE_BASE }),
    route('Calendar', <CalendarPage />, { base: COURSE_BASE }),
    route('Assignment', <AssignmentListPage />, { base: COURSE_BASE }),
    route('Assessment', <AssessmentPage />, { base: COURSE_BASE, guard: AssessmentGuard }),
    route('AssessmentDetail', <AssessmentDetailPage />, { base: COURSE_BASE, guard: AssessmentDetailGuard }),
    route('AssignmentDetail', <AssignmentDetailPage />, { base: COURSE_BASE }),
    route('Submission', <SubmissionListPage />, { base: COURSE_BASE }),
    route('SubmissionDetail', <SubmissionDetailPage />, { base: COURSE_BASE }),
    route('Forum', <ForumPage />, { base: COURSE_BASE }),
    route('ForumDetailInCourse', <ForumDetailPage />, { base: COURSE_BASE }),
    route('Settings', <SettingsPage />, { base: COURSE_BASE }),
    route('Members', <MembersPage />, { base: COURSE_BASE }),
    route('Gradebook', <GradebookPage />, { base: COURSE_BASE }),
    route('Extensions', <ExtensionsPage />, { base: COURSE_BASE }),
    route('QuizList', <QuizListPage />, { base: COURSE_BASE }),
    route('QuizDetailV2', <QuizDetailPage />, { base: COURSE_BASE }),
    route('QuizSubmissionDetail', <QuizSubmissionDetailPage />, { base: COURSE_BASE }),
    route('TestCase', <TestCasePage />, { base: COURSE_BASE }),
    route('Video', <VideoPage />, { base: COURSE_BASE }),
    route('VideoDetail', <VideoDetailPage />, { base: COURSE_BASE }),
  ];
}

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        index: true,
        element: <Navigate to={ROUTES.Course.path} replace />,
        handle: { route: 'Home' } satisfies RouteHandle,
      },
      route('Login', <LoginPage />),
      route('SetPassword', <SetPasswordPage />),
      route('PasswordChange', <PasswordChangePage />),
      route('Register', <RegisterPage />),
      route('VerifyEmail', <VerifyEmailPage />),
      route('About', <AboutPage />),
      route('PrivacyPolicy', <PrivacyPolicyPage />),
      {
        element: <RequireAuth />,
        children: [
          route('Profile', <ProfilePage />),
          route('Course', <CourseListPage />),
          route('MailOutbox', <OutboxPage />),
          // Matches /pygrade and /pygrade/ (react-router ignores a trailing slash); students get NotFound.
          route('PyGrade', <PyGradePage />, { guard: PyGradeGuard }),
          { path: COURSE_BASE, element: <CourseLayout />, children: courseRoutes() },
          route('NotFound', <NotFoundPage />),
        ],
      },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes);
  // A failed token refresh sends the browser to /login: through the router, without reloading the app.
  setNavigator((path) => void router.navigate(path));
  return router;
}
