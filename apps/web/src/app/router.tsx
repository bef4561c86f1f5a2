import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { setNavigator } from '../api/client.ts';
import type { RouteGuard } from './guards.tsx';
import { AssessmentDetailGuard, AssessmentGuard } from '../features/assessment/AssessmentGuard.tsx';
import { RequireAuth } from './guards.tsx';
import { CourseLayout } from './layout/CourseLayout.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import type { RouteHandle } from './layout/useDocumentTitle.ts';
import { NotFoundPage } from '../ui/NotFoundPage.tsx';
import { PyGradeGuard } from '../features/pygrade/PyGradeGuard.tsx';
import { RouteErrorBoundary } from './pages/RouteErrorPage.tsx';
import { ROUTES, type RouteName } from '../routes/route-table.ts';
import { lazyComponent } from '../ui/lazyComponent.ts';
import { loadPageTexts } from '../i18n/index.ts';
import { PAGES, type PageLoader, type PageName } from './pages.ts';

/**
 * A page of pages.ts as a lazy component: its code and its texts (vite-page-texts.ts). Without its
 * texts (offline) it is shown anyway, and a missing text brings the whole dictionary (i18n/index.ts).
 */
function lazyPage(name: PageName) {
  const load: PageLoader = PAGES[name];
  return lazyComponent(() =>
    Promise.all([load(), loadPageTexts(name).catch(() => undefined)]).then(([page]) => ({ default: page })),
  );
}

const LoginPage = lazyPage('Login');
const SetPasswordPage = lazyPage('SetPassword');
const PasswordChangePage = lazyPage('PasswordChange');
const RegisterPage = lazyPage('Register');
const VerifyEmailPage = lazyPage('VerifyEmail');
const OutboxPage = lazyPage('MailOutbox');
const SsoLoginPage = lazyPage('SsoLogin');
const SignInSettingsPage = lazyPage('SignInSettings');
const LtiSettingsPage = lazyPage('LtiSettings');
const LtiLaunchPage = lazyPage('LtiLaunch');
const LtiContextPage = lazyPage('LtiContext');
const LtiDeepLinkPage = lazyPage('LtiDeepLink');
const AboutPage = lazyPage('About');
const PrivacyPolicyPage = lazyPage('PrivacyPolicy');
const ProfilePage = lazyPage('Profile');
const CourseListPage = lazyPage('Course');
const SettingsPage = lazyPage('Settings');
const MembersPage = lazyPage('Members');
const GradebookPage = lazyPage('Gradebook');
const ExtensionsPage = lazyPage('Extensions');
const SimilarityReportPage = lazyPage('SimilarityReport');
const AssignmentListPage = lazyPage('Assignment');
const AssignmentDetailPage = lazyPage('AssignmentDetail');
const TestCasePage = lazyPage('TestCase');
const SubmissionListPage = lazyPage('Submission');
const SubmissionDetailPage = lazyPage('SubmissionDetail');
const SubmissionComparePage = lazyPage('SubmissionCompare');
const CalendarPage = lazyPage('Calendar');
const QuizListPage = lazyPage('QuizList');
const QuizDetailPage = lazyPage('QuizDetailV2');
const QuizSubmissionDetailPage = lazyPage('QuizSubmissionDetail');
const ForumPage = lazyPage('Forum');
const ForumDetailPage = lazyPage('ForumDetailInCourse');
const VideoPage = lazyPage('Video');
const VideoDetailPage = lazyPage('VideoDetail');
const WorkbookPage = lazyPage('Workbook');
const AssessmentPage = lazyPage('Assessment');
const PyGradePage = lazyPage('PyGrade');
const CourseHomePage = lazyPage('CourseHome');
const AssessmentDetailPage = lazyPage('AssessmentDetail');
const RubricPage = lazyPage('Rubric');
const GradingQueuePage = lazyPage('Grading');
const GradeSubmissionPage = lazyPage('GradeSubmission');
const RegradeRequestsPage = lazyPage('RegradeRequests');
const NotificationsPage = lazyPage('Notifications');
const NotificationSettingsPage = lazyPage('NotificationSettings');
const UnsubscribePage = lazyPage('Unsubscribe');

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
    route('SubmissionCompare', <SubmissionComparePage />, { base: COURSE_BASE }),
    route('Forum', <ForumPage />, { base: COURSE_BASE }),
    route('ForumDetailInCourse', <ForumDetailPage />, { base: COURSE_BASE }),
    route('Settings', <SettingsPage />, { base: COURSE_BASE }),
    route('Members', <MembersPage />, { base: COURSE_BASE }),
    route('Gradebook', <GradebookPage />, { base: COURSE_BASE }),
    route('Extensions', <ExtensionsPage />, { base: COURSE_BASE }),
    route('SimilarityReport', <SimilarityReportPage />, { base: COURSE_BASE }),
    route('QuizList', <QuizListPage />, { base: COURSE_BASE }),
    route('QuizDetailV2', <QuizDetailPage />, { base: COURSE_BASE }),
    route('QuizSubmissionDetail', <QuizSubmissionDetailPage />, { base: COURSE_BASE }),
    route('TestCase', <TestCasePage />, { base: COURSE_BASE }),
    route('Video', <VideoPage />, { base: COURSE_BASE }),
    route('VideoDetail', <VideoDetailPage />, { base: COURSE_BASE }),
    route('Rubric', <RubricPage />, { base: COURSE_BASE }),
    route('Grading', <GradingQueuePage />, { base: COURSE_BASE }),
    route('GradeSubmission', <GradeSubmissionPage />, { base: COURSE_BASE }),
    route('RegradeRequests', <RegradeRequestsPage />, { base: COURSE_BASE }),
  ];
}

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        index: true,
        element: <Navigate to={ROUTES.Course.path} replace />,
        handle: { route: 'Home' } satisfies RouteHandle,
      },
      route('Login', <LoginPage />),
      route('SsoLogin', <SsoLoginPage />),
      // The landing inside an LMS's frame: no session yet (it makes one from the launch's code).
      route('LtiLaunch', <LtiLaunchPage />),
      route('SetPassword', <SetPasswordPage />),
      route('PasswordChange', <PasswordChangePage />),
      route('Register', <RegisterPage />),
      route('VerifyEmail', <VerifyEmailPage />),
      route('About', <AboutPage />),
      route('PrivacyPolicy', <PrivacyPolicyPage />),
      // An e-mail's unsubscribe link: no sign-in (its token is the key).
      route('Unsubscribe', <UnsubscribePage />),
      {
        element: <RequireAuth />,
        children: [
          route('Profile', <ProfilePage />),
          route('Course', <CourseListPage />),
          route('MailOutbox', <OutboxPage />),
          route('SignInSettings', <SignInSettingsPage />),
          route('LtiSettings', <LtiSettingsPage />),
          route('LtiContext', <LtiContextPage />),
          route('LtiDeepLink', <LtiDeepLinkPage />),
          route('Notifications', <NotificationsPage />),
          route('NotificationSettings', <NotificationSettingsPage />),
          // Matches /pygrade and /pygrade/ (react-router ignores a trailing slash); students get NotFound.
          route('PyGrade', <PyGradePage />, { guard: PyGradeGuard }),
          { path: COURSE_BASE, element: <CourseLayout />, children: courseRoutes() },
          route('NotFound', <NotFoundPage />),
        ],
      },
    ],
  },
];

/**
 * The routes of the table where the app is: `appRoutes`, or a test's own. Declarative routes (inside a
 * BrowserRouter, or a test's MemoryRouter) rather than a data router: the app loads no data through
 * the router (TanStack Query does), and react-router's data router is 15 KB of the first screen's code
 * (brotli) that nothing here used (docs/first-load.md).
 */
export function AppRoutes({ routes = appRoutes }: { routes?: RouteObject[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // A failed token refresh sends the browser to /login: through the router, without reloading the app.
  useEffect(() => setNavigator((path) => void navigate(path)), [navigate]);
  return <RouteErrorBoundary pathname={pathname}>{useRoutes(routes)}</RouteErrorBoundary>;
}
