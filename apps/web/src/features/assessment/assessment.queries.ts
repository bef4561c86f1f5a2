import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { i18n } from '../../i18n/index.ts';
import { memberName } from '../courses/member-name.ts';
import {
  getAssessmentExistence,
  getAssessmentTable,
  getAssignmentHistogram,
  getSkillCatalogue,
  getSkillHistogram,
  getStudentAnalysis,
  listFeedback,
  listSkills,
  listWorkshops,
} from './assessment.api.ts';

/**
 * Results change when grades land, which nothing tells the page: live views ask again every minute and
 * when the tab regains focus (TanStack Query pauses the interval while the tab is hidden).
 */
export const RESULTS_REFRESH_MS = 60_000;
const live = { refetchInterval: RESULTS_REFRESH_MS, refetchOnWindowFocus: true } as const;

export const assessmentKeys = {
  all: ['assessment'] as const,
  course: (courseId: number) => [...assessmentKeys.all, courseId] as const,
  existence: (courseId: number) => [...assessmentKeys.course(courseId), 'existence'] as const,
  table: (courseId: number) => [...assessmentKeys.course(courseId), 'table'] as const,
  student: (courseId: number, userId: number) =>
    [...assessmentKeys.course(courseId), 'student', userId] as const,
  analysis: (courseId: number, userId: number, skillType: string | null) =>
    [...assessmentKeys.student(courseId, userId), 'analysis', skillType] as const,
  histogram: (courseId: number, userId: number, kind: 'assignment' | 'skill', item: string) =>
    [...assessmentKeys.student(courseId, userId), 'histogram', kind, item] as const,
  feedback: (courseId: number, userId: number) =>
    [...assessmentKeys.student(courseId, userId), 'feedback'] as const,
  workshops: (courseId: number, userId: number | null, offset = 0) =>
    [...assessmentKeys.course(courseId), 'workshops', userId, offset] as const,
  skills: (courseId: number) => [...assessmentKeys.course(courseId), 'skills'] as const,
  catalogue: (courseId: number) => [...assessmentKeys.course(courseId), 'catalogue'] as const,
};

export function assessmentExistenceQuery(courseId: number) {
  return queryOptions({
    queryKey: assessmentKeys.existence(courseId),
    queryFn: ({ signal }) => getAssessmentExistence(courseId, signal),
  });
}

export function assessmentTableQuery(courseId: number) {
  return queryOptions({
    queryKey: assessmentKeys.table(courseId),
    queryFn: ({ signal }) => getAssessmentTable(courseId, signal),
    ...live,
  });
}

export function studentAnalysisQuery(courseId: number, userId: number, skillType: string | null) {
  return queryOptions({
    queryKey: assessmentKeys.analysis(courseId, userId, skillType),
    queryFn: ({ signal }) => getStudentAnalysis(courseId, userId, skillType, signal),
    placeholderData: keepPreviousData,
    ...live,
  });
}

export type HistogramSubject = { kind: 'assignment'; id: number } | { kind: 'skill'; name: string };

export function histogramQuery(courseId: number, userId: number, subject: HistogramSubject) {
  const item = subject.kind === 'assignment' ? String(subject.id) : subject.name;
  return queryOptions({
    queryKey: assessmentKeys.histogram(courseId, userId, subject.kind, item),
    queryFn: ({ signal }) =>
      subject.kind === 'assignment'
        ? getAssignmentHistogram(courseId, userId, subject.id, signal)
        : getSkillHistogram(courseId, userId, subject.name, signal),
    placeholderData: keepPreviousData,
    ...live,
  });
}

export function feedbackQuery(courseId: number, userId: number) {
  return queryOptions({
    queryKey: assessmentKeys.feedback(courseId, userId),
    queryFn: ({ signal }) => listFeedback(courseId, userId, signal),
    ...live,
  });
}

/** `userId` null: every workshop of the course (editors), a page of them from `offset`. */
export function workshopsQuery(courseId: number, userId: number | null, offset = 0) {
  return queryOptions({
    queryKey: assessmentKeys.workshops(courseId, userId, offset),
    queryFn: ({ signal }) => listWorkshops(courseId, userId, offset, signal),
    placeholderData: keepPreviousData,
    ...live,
  });
}

export function skillsQuery(courseId: number) {
  return queryOptions({
    queryKey: assessmentKeys.skills(courseId),
    queryFn: ({ signal }) => listSkills(courseId, signal),
  });
}

export function skillCatalogueQuery(courseId: number) {
  return queryOptions({
    queryKey: assessmentKeys.catalogue(courseId),
    queryFn: ({ signal }) => getSkillCatalogue(courseId, signal),
  });
}

/**
 * Breadcrumb title of `user_id` on AssessmentDetail: the student's name, from the page's own query.
 * Like the page, it asks only once the existence check says the course has an analysis.
 */
export async function resolveAssessmentStudentTitle(
  value: string,
  params: Readonly<Record<string, string | undefined>>,
  queryClient: QueryClient,
): Promise<string> {
  const courseId = Number(params.course_id);
  const existence = await queryClient.ensureQueryData(assessmentExistenceQuery(courseId));
  if (!existence.data) throw new Error('no assessment analysis');
  const analysis = await queryClient.ensureQueryData(studentAnalysisQuery(courseId, Number(value), null));
  return memberName(analysis.user, i18n.language);
}
