import { expect, type APIRequestContext } from '@playwright/test';
import { ACCOUNTS, apiToken, unique } from './support.ts';
import { apiCall } from './api-client.ts';

/** Data for the pages of assignments, made through the API (the journeys make theirs in the browser). */
export interface GradedAssignment {
  courseId: number;
  assignmentId: number;
  submissionId: number;
  title: string;
}

/**
 * An open assignment in the course with a visible and a hidden test and a pytest file, and one graded
 * submission of `student` that passes the visible test and one of the file's two tests (so its page
 * shows a diff, a hidden verdict, per-test items and a score).
 */
export async function gradedAssignment(
  request: APIRequestContext,
  courseId: number,
  student: string = ACCOUNTS.savedStudent,
): Promise<GradedAssignment> {
  const editor = (await apiToken(request, ACCOUNTS.editor)).token;
  const title = unique('Axe assignment');
  const now = Date.now();
  const assignment = await apiCall<{ id: number }>(request, editor, 'POST', '/Assignment/', {
    title,
    statement:
      '## Task\n\nRead `a` and `b`, print **a + b**.\n\n- one line\n- [docs](https://docs.python.org/3/)',
    starter_code: 'a, b = map(int, input().split())\n',
    reference_solution: 'a, b = map(int, input().split())\nprint(a + b)\n',
    courses: [
      {
        course_id: courseId,
        opens_at: new Date(now - 3_600_000).toISOString(),
        due_at: new Date(now + 7 * 86_400_000).toISOString(),
        late_until: new Date(now + 9 * 86_400_000).toISOString(),
        leaderboard_enabled: true,
      },
    ],
  });
  const tests = `/Assignment/${assignment.id}/${courseId}/TestCase/`;
  await apiCall(request, editor, 'POST', tests, {
    name: 'Small',
    stdin: '3 4\n',
    expected_stdout: '7\n',
    points: 5,
  });
  await apiCall(request, editor, 'POST', tests, {
    name: 'Large',
    stdin: '1000000 2000000\n',
    expected_stdout: '3000000\n',
    points: 5,
    visibility: 'hidden',
  });
  // A pytest file that runs the program, so the pages show per-test items and a failing test's diff.
  await apiCall(request, editor, 'POST', tests, {
    name: 'As a program (pytest)',
    kind: 'pytest',
    points: 2,
    test_code: [
      'import subprocess, sys',
      '',
      'def run(text):',
      "    return subprocess.run([sys.executable, 'main.py'], input=text, capture_output=True, text=True).stdout",
      '',
      'def test_three_and_four():',
      "    assert run('3 4\\n').split() == ['7']",
      '',
      'def test_thousands():',
      "    assert run('1000 1\\n').split() == ['1001']",
      '',
    ].join('\n'),
  });

  const studentToken = (await apiToken(request, student)).token;
  const submission = await apiCall<{ id: number }>(request, studentToken, 'POST', '/Submission/Submit/', {
    assignment_id: assignment.id,
    course_id: courseId,
    code: 'a, b = map(int, input().split())\nprint(a + b if a < 1000 else 0)\n',
  });
  await expect
    .poll(
      async () =>
        (await apiCall<{ status: string }>(request, studentToken, 'GET', `/Submission/${submission.id}/`))
          .status,
      { timeout: 30_000 },
    )
    .toBe('Completed');
  return { courseId, assignmentId: assignment.id, submissionId: submission.id, title };
}
