import type { ComponentType } from 'react';
import type { PageName, RouteName } from '../routes/route-definitions.ts';
import { ROUTES } from '../routes/route-definitions.ts';
import { matchRouteName } from './route-match.ts';

/** A page's component, loaded when it is first shown. */
export type PageLoader = () => Promise<ComponentType>;

/**
 * The pages of the route table, each loaded on demand so the first visit downloads only the shell and
 * the page it opens. router.tsx makes them lazy components; boot.ts starts loading the one being opened
 * while the shell's code is still arriving. Importing a page twice gives the one module.
 */
export const PAGES = {
  Login: () => import('../features/auth/LoginPage.tsx').then((m) => m.LoginPage),
  SetPassword: () => import('../features/auth/SetPasswordPage.tsx').then((m) => m.SetPasswordPage),
  PasswordChange: () => import('../features/auth/PasswordChangePage.tsx').then((m) => m.PasswordChangePage),
  Register: () => import('../features/auth/RegisterPage.tsx').then((m) => m.RegisterPage),
  VerifyEmail: () => import('../features/auth/VerifyEmailPage.tsx').then((m) => m.VerifyEmailPage),
  MailOutbox: () => import('../features/mail/OutboxPage.tsx').then((m) => m.OutboxPage),
  SsoLogin: () => import('../features/auth/SsoLoginPage.tsx').then((m) => m.SsoLoginPage),
  SignInSettings: () =>
    import('../features/identity/SignInSettingsPage.tsx').then((m) => m.SignInSettingsPage),
  LtiSettings: () => import('../features/lti/LtiSettingsPage.tsx').then((m) => m.LtiSettingsPage),
  LtiLaunch: () => import('../features/lti/LtiLaunchPage.tsx').then((m) => m.LtiLaunchPage),
  LtiContext: () => import('../features/lti/LtiContextPage.tsx').then((m) => m.LtiContextPage),
  LtiDeepLink: () => import('../features/lti/LtiDeepLinkPage.tsx').then((m) => m.LtiDeepLinkPage),
  About: () => import('../features/about/AboutPage.tsx').then((m) => m.AboutPage),
  PrivacyPolicy: () => import('../features/about/PrivacyPolicyPage.tsx').then((m) => m.PrivacyPolicyPage),
  Profile: () => import('../features/users/ProfilePage.tsx').then((m) => m.ProfilePage),
  Course: () => import('../features/courses/CourseListPage.tsx').then((m) => m.CourseListPage),
  Settings: () => import('../features/courses/SettingsPage.tsx').then((m) => m.SettingsPage),
  Members: () => import('../features/courses/MembersPage.tsx').then((m) => m.MembersPage),
  Gradebook: () => import('../features/assessment/GradebookPage.tsx').then((m) => m.GradebookPage),
  Extensions: () => import('../features/extensions/ExtensionsPage.tsx').then((m) => m.ExtensionsPage),
  SimilarityReport: () =>
    import('../features/similarity/SimilarityReportPage.tsx').then((m) => m.SimilarityReportPage),
  Assignment: () =>
    import('../features/assignments/AssignmentListPage.tsx').then((m) => m.AssignmentListPage),
  AssignmentDetail: () =>
    import('../features/assignments/AssignmentDetailPage.tsx').then((m) => m.AssignmentDetailPage),
  TestCase: () => import('../features/assignments/TestCasePage.tsx').then((m) => m.TestCasePage),
  Submission: () =>
    import('../features/submissions/SubmissionListPage.tsx').then((m) => m.SubmissionListPage),
  SubmissionDetail: () =>
    import('../features/submissions/SubmissionDetailPage.tsx').then((m) => m.SubmissionDetailPage),
  SubmissionCompare: () =>
    import('../features/submissions/SubmissionComparePage.tsx').then((m) => m.SubmissionComparePage),
  Calendar: () => import('../features/events/CalendarPage.tsx').then((m) => m.CalendarPage),
  QuizList: () => import('../features/quizzes/QuizListPage.tsx').then((m) => m.QuizListPage),
  QuizDetailV2: () => import('../features/quizzes/QuizDetailPage.tsx').then((m) => m.QuizDetailPage),
  QuizSubmissionDetail: () =>
    import('../features/quizzes/QuizSubmissionDetailPage.tsx').then((m) => m.QuizSubmissionDetailPage),
  Forum: () => import('../features/forum/ForumPage.tsx').then((m) => m.ForumPage),
  ForumDetailInCourse: () => import('../features/forum/ForumDetailPage.tsx').then((m) => m.ForumDetailPage),
  Video: () => import('../features/videos/VideoPage.tsx').then((m) => m.VideoPage),
  VideoDetail: () => import('../features/videos/VideoDetailPage.tsx').then((m) => m.VideoDetailPage),
  Workbook: () => import('../features/workbooks/WorkbookPage.tsx').then((m) => m.WorkbookPage),
  Assessment: () => import('../features/assessment/AssessmentPage.tsx').then((m) => m.AssessmentPage),
  PyGrade: () => import('../features/pygrade/PyGradePage.tsx').then((m) => m.PyGradePage),
  CourseHome: () => import('../features/overview/CourseHomePage.tsx').then((m) => m.CourseHomePage),
  AssessmentDetail: () =>
    import('../features/assessment/AssessmentDetailPage.tsx').then((m) => m.AssessmentDetailPage),
  Rubric: () => import('../features/review/RubricPage.tsx').then((m) => m.RubricPage),
  Grading: () => import('../features/review/GradingQueuePage.tsx').then((m) => m.GradingQueuePage),
  GradeSubmission: () =>
    import('../features/review/GradeSubmissionPage.tsx').then((m) => m.GradeSubmissionPage),
  RegradeRequests: () =>
    import('../features/review/RegradeRequestsPage.tsx').then((m) => m.RegradeRequestsPage),
  Notifications: () =>
    import('../features/notifications/NotificationsPage.tsx').then((m) => m.NotificationsPage),
  NotificationSettings: () =>
    import('../features/notifications/NotificationSettingsPage.tsx').then((m) => m.NotificationSettingsPage),
  Unsubscribe: () => import('../features/notifications/UnsubscribePage.tsx').then((m) => m.UnsubscribePage),
} satisfies Record<PageName, PageLoader>;

export type { PageName };

function isPage(name: RouteName): name is PageName {
  return Object.hasOwn(PAGES, name);
}

/**
 * The page the app will show at `pathname`: the route's own, the sign-in page when it needs a session
 * and there is none (RequireAuth sends the reader there), the course list for `/` (a redirect).
 * Null for a page that is part of the shell (NotFound).
 */
export function pageToOpen(pathname: string, signedIn: boolean): PageName | null {
  const name = matchRouteName(pathname);
  if (name === null) return null;
  if (ROUTES[name].signIn && !signedIn) return 'Login';
  if (name === 'Home') return signedIn ? 'Course' : 'Login';
  return isPage(name) ? name : null;
}
