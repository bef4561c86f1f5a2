// The route table's data, with no dependency: boot.ts reads it (to start loading the page being
// opened) before the app's code has arrived. route-table.ts adds what needs react-router.
import type { TranslationKey } from '../i18n/keys.ts';

/** The routes of spec §2, by name, in the spec's order. */
export const ROUTE_NAMES = [
  'Login',
  'SetPassword',
  'PasswordChange',
  'About',
  'Profile',
  'Course',
  'Workbook',
  'Calendar',
  'Assignment',
  'Assessment',
  'AssessmentDetail',
  'AssignmentDetail',
  'Submission',
  'SubmissionDetail',
  'Forum',
  'ForumDetailInCourse',
  'Settings',
  'QuizList',
  'QuizDetailV2',
  'QuizSubmissionDetail',
  'TestCase',
  'Video',
  'VideoDetail',
  'PrivacyPolicy',
  'Home',
  'PyGrade',
  'NotFound',
  // Beyond spec §2: self-registration and the staff outbox (docs/accounts.md).
  'Register',
  'VerifyEmail',
  'MailOutbox',
  // Beyond spec §2 (issue 21): a course's editors and students, for its editors and staff.
  'Members',
  // Beyond spec §2 (issue 21): every student against every assignment and quiz, for editors and staff.
  'Gradebook',
  // Beyond spec §2 (issue 21 §2): per-student extensions of due dates and quiz windows, for editors and staff.
  'Extensions',
  // Beyond spec §2 (issue 21): the course's first page, what is due and new (students) or needs doing.
  'CourseHome',
  // Beyond spec §2 (issue 37): where a university sign-in lands, and the staff's sign-in settings.
  'SsoLogin',
  'SignInSettings',
  // Beyond spec §2 (issue 38): Kadai as an LTI 1.3 tool: the staff's LMS platforms, the landing page
  // inside the LMS's frame, linking an LMS course to a Kadai course, and the deep-linking picker.
  'LtiSettings',
  'LtiLaunch',
  'LtiContext',
  'LtiDeepLink',
  // Beyond spec §2 (issue 39): two submissions of one author, or one and the reference, side by side.
  'SubmissionCompare',
  // Beyond spec §2 (issue 39): the teacher's review — an assignment's rubric, its grading queue, the
  // grading of one submission, and the course's regrade requests, for editors and staff.
  'Rubric',
  'Grading',
  'GradeSubmission',
  'RegradeRequests',
  // Beyond spec §2 (issue 39): an assignment's similarity report, for editors and staff.
  'SimilarityReport',
  // Beyond spec §2 (issue 40): the reader's notifications, what reaches them by e-mail, and the page an
  // e-mail's unsubscribe link opens (no sign-in: the link's token says whose e-mail it turns off).
  'Notifications',
  'NotificationSettings',
  'Unsubscribe',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/**
 * The routes drawn by a page of their own: app/pages.ts loads each on demand, and the build gives each
 * its own part of the texts (i18n/texts.ts). `Home` redirects; `NotFound` is drawn by the shell.
 */
export type PageName = Exclude<RouteName, 'Home' | 'NotFound'>;

export interface RouteDefinition {
  /** react-router pattern. */
  path: string;
  /** i18n key of the page title (document title, breadcrumb, page heading). */
  titleKey: TranslationKey;
  signIn: boolean;
  /** The breadcrumb before this one, inside a course. */
  parent?: RouteName;
  /**
   * The path parameter naming the object this page shows; its breadcrumb shows the object's title,
   * resolved through the title resolvers (see breadcrumbs.ts).
   */
  titleParam?: string;
}

const COURSE = '/course/:course_id';

export const ROUTES: Record<RouteName, RouteDefinition> = {
  Login: { path: '/login', titleKey: 'routes.login', signIn: false },
  SetPassword: { path: '/set-password', titleKey: 'routes.setPassword', signIn: false },
  PasswordChange: { path: '/password-change', titleKey: 'routes.passwordChange', signIn: false },
  About: { path: '/about', titleKey: 'routes.about', signIn: false },
  Profile: { path: '/profile/:userId?', titleKey: 'routes.profile', signIn: true },
  Course: { path: '/course', titleKey: 'routes.course', signIn: true },
  Workbook: { path: `${COURSE}/workbook`, titleKey: 'routes.workbook', signIn: true },
  Calendar: { path: `${COURSE}/calendar`, titleKey: 'routes.calendar', signIn: true },
  Assignment: { path: `${COURSE}/assignment`, titleKey: 'routes.assignment', signIn: true },
  Assessment: { path: `${COURSE}/assessment`, titleKey: 'routes.assessment', signIn: true },
  AssessmentDetail: {
    path: `${COURSE}/assessment/:user_id`,
    titleKey: 'routes.assessmentDetail',
    signIn: true,
    parent: 'Assessment',
    titleParam: 'user_id',
  },
  AssignmentDetail: {
    path: `${COURSE}/assignment/:assignment_id`,
    titleKey: 'routes.assignmentDetail',
    signIn: true,
    parent: 'Assignment',
    titleParam: 'assignment_id',
  },
  Submission: { path: `${COURSE}/submission`, titleKey: 'routes.submission', signIn: true },
  SubmissionDetail: {
    path: `${COURSE}/submission/:submission_id`,
    titleKey: 'routes.submissionDetail',
    signIn: true,
    parent: 'Submission',
    titleParam: 'submission_id',
  },
  Forum: { path: `${COURSE}/forum`, titleKey: 'routes.forum', signIn: true },
  ForumDetailInCourse: {
    path: `${COURSE}/forum/:forum_record_id`,
    titleKey: 'routes.forumDetail',
    signIn: true,
    parent: 'Forum',
    titleParam: 'forum_record_id',
  },
  Settings: { path: `${COURSE}/settings`, titleKey: 'routes.settings', signIn: true },
  QuizList: { path: `${COURSE}/quizzes`, titleKey: 'routes.quizList', signIn: true },
  QuizDetailV2: {
    path: `${COURSE}/quizzes/:quiz_id/quiz-courses/:quiz_course_id`,
    titleKey: 'routes.quizDetail',
    signIn: true,
    parent: 'QuizList',
    titleParam: 'quiz_id',
  },
  QuizSubmissionDetail: {
    path: `${COURSE}/quizzes/:quiz_id/quiz-submissions/:quiz_submission_id`,
    titleKey: 'routes.quizSubmissionDetail',
    signIn: true,
    parent: 'QuizList',
    titleParam: 'quiz_submission_id',
  },
  TestCase: {
    path: `${COURSE}/testcase/:assignment_id`,
    titleKey: 'routes.testCase',
    signIn: true,
    // Assignments > the assignment's title > Test cases.
    parent: 'AssignmentDetail',
  },
  Video: { path: `${COURSE}/video`, titleKey: 'routes.video', signIn: true },
  VideoDetail: {
    path: `${COURSE}/:platform/:video_url`,
    titleKey: 'routes.videoDetail',
    signIn: true,
    parent: 'Video',
    titleParam: 'video_url',
  },
  PrivacyPolicy: { path: '/privacy-policy', titleKey: 'routes.privacyPolicy', signIn: false },
  Home: { path: '/', titleKey: 'routes.course', signIn: false },
  // Issue 21: a page of the app for editors and staff (spec §2 had a separate page open to all).
  PyGrade: { path: '/pygrade/', titleKey: 'routes.pygrade', signIn: true },
  NotFound: { path: '*', titleKey: 'routes.notFound', signIn: true },
  Register: { path: '/register', titleKey: 'routes.register', signIn: false },
  VerifyEmail: { path: '/verify-email', titleKey: 'routes.verifyEmail', signIn: false },
  MailOutbox: { path: '/mail/outbox', titleKey: 'routes.mailOutbox', signIn: true },
  Members: { path: `${COURSE}/members`, titleKey: 'routes.members', signIn: true },
  Gradebook: { path: `${COURSE}/gradebook`, titleKey: 'routes.gradebook', signIn: true },
  Extensions: { path: `${COURSE}/extensions`, titleKey: 'routes.extensions', signIn: true },
  CourseHome: { path: COURSE, titleKey: 'routes.courseHome', signIn: true },
  SsoLogin: { path: '/login/sso', titleKey: 'routes.ssoLogin', signIn: false },
  SignInSettings: { path: '/admin/sign-in', titleKey: 'routes.signInSettings', signIn: true },
  LtiSettings: { path: '/admin/lti', titleKey: 'routes.ltiSettings', signIn: true },
  LtiLaunch: { path: '/lti', titleKey: 'routes.ltiLaunch', signIn: false },
  LtiContext: { path: '/lti/context/:context_id', titleKey: 'routes.ltiContext', signIn: true },
  LtiDeepLink: { path: '/lti/deep-link/:deep_link_id', titleKey: 'routes.ltiDeepLink', signIn: true },
  SubmissionCompare: {
    path: `${COURSE}/submission/:submission_id/compare`,
    titleKey: 'routes.submissionCompare',
    signIn: true,
    // Submissions > #12 · the assignment's title > Compare submissions.
    parent: 'SubmissionDetail',
  },
  Rubric: {
    path: `${COURSE}/assignment/:assignment_id/rubric`,
    titleKey: 'routes.rubric',
    signIn: true,
    parent: 'AssignmentDetail',
  },
  Grading: {
    path: `${COURSE}/assignment/:assignment_id/grading`,
    titleKey: 'routes.grading',
    signIn: true,
    parent: 'AssignmentDetail',
  },
  GradeSubmission: {
    path: `${COURSE}/assignment/:assignment_id/grading/:submission_id`,
    titleKey: 'routes.gradeSubmission',
    signIn: true,
    parent: 'Grading',
    titleParam: 'submission_id',
  },
  RegradeRequests: {
    path: `${COURSE}/regrade-requests`,
    titleKey: 'routes.regradeRequests',
    signIn: true,
  },
  SimilarityReport: {
    path: `${COURSE}/assignment/:assignment_id/similarity`,
    titleKey: 'routes.similarityReport',
    signIn: true,
    // Assignments > the assignment's title > Similarity report.
    parent: 'AssignmentDetail',
  },
  Notifications: { path: '/notifications', titleKey: 'routes.notifications', signIn: true },
  NotificationSettings: {
    path: '/notifications/settings',
    titleKey: 'routes.notificationSettings',
    signIn: true,
  },
  Unsubscribe: { path: '/unsubscribe', titleKey: 'routes.unsubscribe', signIn: false },
};

/** Routes inside a course: the side rail and the course breadcrumbs show on them. */
export function isCourseRoute(name: RouteName): boolean {
  const { path } = ROUTES[name];
  return path === COURSE || path.startsWith(`${COURSE}/`);
}
