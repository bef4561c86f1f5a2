import { useQuery } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useMemo } from 'react';
import { testCasesQuery } from './assignments.queries.ts';

export type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

/**
 * An assignment's tests as its editors see them (every field), with how many count and their points in
 * all: a draft (a pytest module that does not collect) is not part of the assignment, as the API counts.
 */
export function useEditorTestCases(assignmentId: number, courseId: number) {
  const query = useQuery(testCasesQuery(assignmentId, courseId));
  const tests = useMemo(
    () => (query.data?.results ?? []).filter((test): test is EditorTestCase => test.view === 'editor'),
    [query.data],
  );
  const counted = tests.filter((test) => !test.draft);
  const totalPoints = counted.reduce((sum, test) => sum + test.points, 0);
  return { query, tests, countedTests: counted.length, drafts: tests.length - counted.length, totalPoints };
}
