import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { hoursFromNow, insertAssignment } from '../assignments/testing.ts';
import { insertQuiz, minutesFromNow } from '../quizzes/testing.ts';

/**
 * A course with an assignment past its due date (no late period), a closed quiz with a 30-minute limit,
 * the world's student and a classmate: what extensions are for.
 */
export async function createExtensionWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const classmate = await createUser(t);
  await addStudent(t, world.course.id, classmate.id);
  const assignment = await insertAssignment(t, {
    title: 'Week 3: recursion',
    courses: [{ courseId: world.course.id, opensAt: hoursFromNow(-72), dueAt: hoursFromNow(-1) }],
  });
  const quiz = await insertQuiz(t, {
    title: 'Quiz 2',
    courses: [
      {
        courseId: world.course.id,
        opensAt: minutesFromNow(-180),
        closesAt: minutesFromNow(-60),
        timeLimitMinutes: 30,
      },
    ],
  });
  return {
    ...world,
    users: { ...world.users, classmate },
    tokens: { ...world.tokens, classmate: await tokenFor(t, classmate) },
    assignment,
    quiz: quiz.quiz,
    quizQuestions: quiz.questions,
    quizCourse: quiz.quizCourseOf(world.course.id),
  };
}
export type ExtensionWorld = Awaited<ReturnType<typeof createExtensionWorld>>;
