import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  SimilarityPairView,
  SimilarityReport,
  SimilarityReportList,
  SimilarityReportSummary,
  type SimilarityStatus,
} from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

/* Similarity reports (docs/similarity.md): editors of the course and staff only. */

export function listSimilarityReports(courseId: number, assignmentId: number, signal?: AbortSignal) {
  return apiCall('listSimilarityReports', 'GET', '/Course/{id}/assignments/{assignment_id}/similarity/', {
    path: { id: courseId, assignment_id: assignmentId },
    response: SimilarityReportList,
    signal,
  });
}

/** `includeCourseId`: another course of the assignment whose students join the comparison. */
export function startSimilarityReport(
  courseId: number,
  assignmentId: number,
  includeCourseId: number | null,
) {
  return apiCall('startSimilarityReport', 'POST', '/Course/{id}/assignments/{assignment_id}/similarity/', {
    path: { id: courseId, assignment_id: assignmentId },
    body: { include_course_id: includeCourseId },
    response: SimilarityReportSummary,
  });
}

export function getSimilarityReport(reportId: number, threshold: number, signal?: AbortSignal) {
  return apiCall('getSimilarityReport', 'GET', '/Similarity/{report_id}/', {
    path: { report_id: reportId },
    query: { threshold, limit: 500 },
    response: SimilarityReport,
    signal,
  });
}

export function getSimilarityPair(reportId: number, left: number, right: number, signal?: AbortSignal) {
  return apiCall('getSimilarityPair', 'GET', '/Similarity/{report_id}/pair/{left}/{right}/', {
    path: { report_id: reportId, left, right },
    response: SimilarityPairView,
    signal,
  });
}

export function downloadSimilarityCsv(reportId: number, threshold: number) {
  return apiDownload('downloadSimilarityCsv', '/Similarity/{report_id}/csv/', {
    path: { report_id: reportId },
    query: { threshold },
    accept: 'text/csv',
  });
}

export const similarityKeys = {
  assignment: (courseId: number, assignmentId: number) => ['similarity', courseId, assignmentId] as const,
  report: (reportId: number, threshold: number) => ['similarity-report', reportId, threshold] as const,
  pair: (reportId: number, left: number, right: number) =>
    ['similarity-pair', reportId, left, right] as const,
};

/** A report still being compared: its page asks again until it is done or failed. */
export const isPending = (status: SimilarityStatus) => status === 'queued' || status === 'running';
const POLL_MS = 2000;

export function similarityReportsQuery(courseId: number, assignmentId: number) {
  return queryOptions({
    queryKey: similarityKeys.assignment(courseId, assignmentId),
    queryFn: ({ signal }) => listSimilarityReports(courseId, assignmentId, signal),
    refetchInterval: (query) =>
      query.state.data?.results.some((r) => isPending(r.status)) ? POLL_MS : false,
  });
}

export function similarityReportQuery(reportId: number, threshold: number) {
  return queryOptions({
    queryKey: similarityKeys.report(reportId, threshold),
    queryFn: ({ signal }) => getSimilarityReport(reportId, threshold, signal),
    refetchInterval: (query) => (query.state.data && isPending(query.state.data.status) ? POLL_MS : false),
  });
}

export function similarityPairQuery(reportId: number, left: number, right: number) {
  return queryOptions({
    queryKey: similarityKeys.pair(reportId, left, right),
    queryFn: ({ signal }) => getSimilarityPair(reportId, left, right, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useStartSimilarityReport(courseId: number, assignmentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (includeCourseId: number | null) =>
      startSimilarityReport(courseId, assignmentId, includeCourseId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: similarityKeys.assignment(courseId, assignmentId) }),
  });
}
