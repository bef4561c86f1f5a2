import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test as setup } from '@playwright/test';
import { gradedAssignment } from './assignment-data.ts';
import { forumAxeData } from './forum-data.ts';
import { demoQuizPages } from './quiz-data.ts';
import { A11Y_DATA, ACCOUNTS, demoCourseId, userIdOf, type A11yData } from './support.ts';

// The data the accessibility checks look at, made once through the API before any journey starts
// (it used to be made again by each walk that needed it: a graded submission twice, the forum twice).
// Walks only read it, so they can run side by side with the journeys.
setup('data for the accessibility checks', async ({ request }) => {
  setup.setTimeout(90_000);
  const courseId = await demoCourseId(request);
  const [assignment, forum, quizzes, savedStudentId] = await Promise.all([
    gradedAssignment(request, courseId),
    forumAxeData(request, courseId),
    demoQuizPages(request, courseId),
    userIdOf(request, ACCOUNTS.savedStudent),
  ]);
  const data: A11yData = { courseId, savedStudentId, assignment, forum, quizzes };
  mkdirSync(path.dirname(A11Y_DATA), { recursive: true });
  writeFileSync(A11Y_DATA, JSON.stringify(data));
});
