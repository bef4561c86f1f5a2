import {
  Quiz,
  QuizContent,
  QuizCourse,
  QuizInCourse,
  QuizInCourseList,
  QuizResults,
  QuizSubmission,
  QuizSubmissionDetail,
  type QuizCourseSpecificQuery,
  type QuizCourseUpdate,
  type QuizCreate,
  type QuizReplace,
  type QuizUpdate,
  type SubmitQuizRequest,
} from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

type Id = number | null | undefined;

export interface CourseQuizzesParams {
  course_id: number;
  hide_submitted: boolean;
  ordering?: QuizCourseSpecificQuery['ordering'];
  search?: string;
}

/** The quizzes of a course with my attempt (students) or the submitted count (editors). */
export function listCourseQuizzes(params: CourseQuizzesParams, signal?: AbortSignal) {
  return apiCall('listCourseQuizzes', 'GET', '/Quiz/CourseSpecific/', {
    query: { ...params, hide_submitted: params.hide_submitted ? 'true' : undefined },
    response: QuizInCourseList,
    signal,
  });
}

export function getQuizInCourse(quizId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('getQuizInCourse', 'GET', '/Quiz/{id}/CourseSpecificDetail/', {
    path: { id: quizId },
    query: { course_id: courseId },
    response: QuizInCourse,
    signal,
  });
}

/** The questions to answer (students, while open and started) or to review; 403 with a code otherwise. */
export function getQuizContent(quizId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('getQuizContent', 'GET', '/Quiz/{id}/QuizContent/', {
    path: { id: quizId },
    query: { course_id: courseId },
    response: QuizContent,
    signal,
  });
}

/** The quiz with its questions and answer keys (editors), or the student view. */
export function getQuiz(id: Id, signal?: AbortSignal) {
  return apiCall('getQuiz', 'GET', '/Quiz/{id}/', { path: { id }, response: Quiz, signal });
}

export function createQuiz(body: QuizCreate) {
  return apiCall('createQuiz', 'POST', '/Quiz/', { body, response: Quiz });
}

/** Title, description and the whole question list; 409 once anyone submitted. */
export function replaceQuiz(id: Id, body: QuizReplace) {
  return apiCall('replaceQuiz', 'PUT', '/Quiz/{id}/', { path: { id }, body, response: Quiz });
}

export function updateQuiz(id: Id, body: QuizUpdate) {
  return apiCall('updateQuiz', 'PATCH', '/Quiz/{id}/', { path: { id }, body, response: Quiz });
}

export function deleteQuiz(id: Id) {
  return apiCall('deleteQuiz', 'DELETE', '/Quiz/{id}/', { path: { id } });
}

export function updateQuizCourse(id: Id, body: QuizCourseUpdate) {
  return apiCall('updateQuizCourse', 'PATCH', '/quiz-courses/{id}/', {
    path: { id },
    body,
    response: QuizCourse,
  });
}

export function getQuizResults(quizCourseId: Id, signal?: AbortSignal) {
  return apiCall('getQuizResults', 'GET', '/quiz-courses/{id}/results/', {
    path: { id: quizCourseId },
    response: QuizResults,
    signal,
  });
}

export function downloadQuizResultsCsv(quizCourseId: Id) {
  return apiDownload('downloadQuizResultsCsv', '/quiz-courses/{id}/results/csv/', {
    path: { id: quizCourseId },
    accept: 'text/csv',
  });
}

/** Starts (or resumes) my attempt; a time limit counts from here. */
export function startQuizAttempt(quizCourseId: Id) {
  return apiCall('startQuizAttempt', 'POST', '/quiz-submissions/create/', {
    body: { quiz_course: quizCourseId },
  });
}

/** Hands the answers in, once; answers the stored submission. */
export function submitQuiz(body: SubmitQuizRequest) {
  return apiCall('submitQuiz', 'POST', '/Submission/SubmitQuiz/', { body, response: QuizSubmission });
}

export function getQuizSubmission(id: Id, signal?: AbortSignal) {
  return apiCall('getQuizSubmission', 'GET', '/QuizSubmission/{id}/', {
    path: { id },
    response: QuizSubmissionDetail,
    signal,
  });
}
