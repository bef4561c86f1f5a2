import { sql } from 'drizzle-orm';
import type { Role } from '@kadai/contracts';
import type { AppContext } from '../lib/context.ts';
import { hashPassword } from '../features/auth/password-hash.ts';
import { hasAnyUser, insertUsers } from '../features/users/users.service.ts';
import { findCourseByTitle, insertCourse, type CourseRow } from '../features/courses/courses.service.ts';
import { insertMembers } from '../features/courses/members.service.ts';
import { seedDemoAssignments } from '../features/assignments/demo.ts';
import { seedDemoEvents } from '../features/events/demo.ts';
import { seedDemoQuizzes } from '../features/quizzes/demo.ts';
import { seedDemoForum } from '../features/forum/demo.ts';
import { seedDemoVideos } from '../features/videos/demo.ts';
import { seedDemoWorkbooks } from '../features/workbooks/demo.ts';
import { seedDemoAssessment } from '../features/assessment/demo.ts';
import { seedDemoReview } from '../features/review/demo.ts';
import type { DemoStep, DemoWorld } from './world.ts';

export const DEMO_PASSWORD = 'demo-password-2026';
/** Later issues hang their demo content (assignments, quizzes, posts, videos) on this course. */
export const DEMO_COURSE_TITLE = 'Introduction to Programming with Python';
export const DEMO_SECOND_COURSE_TITLE = 'Data Structures and Algorithms';

interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  isStaff: boolean;
  roles: Role[];
}

export const DEMO_ACCOUNTS = {
  staff: {
    email: 'staff@example.com',
    firstName: '花子',
    lastName: '佐藤',
    isStaff: true,
    roles: ['no_role'],
  },
  editor: {
    email: 'editor@example.com',
    firstName: 'Emily',
    lastName: 'Carter',
    isStaff: false,
    roles: ['instructor'],
  },
  students: [
    {
      email: 'student1@example.com',
      firstName: '太郎',
      lastName: '山田',
      isStaff: false,
      roles: ['student'],
    },
    {
      email: 'student2@example.com',
      firstName: 'James',
      lastName: 'Wilson',
      isStaff: false,
      roles: ['student'],
    },
    {
      email: 'student3@example.com',
      firstName: '陽菜',
      lastName: '鈴木',
      isStaff: false,
      roles: ['student'],
    },
  ],
} satisfies { staff: DemoAccount; editor: DemoAccount; students: DemoAccount[] };

/** Later issues append their steps here (an assignment with tests, a quiz, forum posts, videos). */
const DEMO_STEPS: DemoStep[] = [
  seedDemoAssignments,
  seedDemoEvents,
  seedDemoQuizzes,
  seedDemoForum,
  seedDemoVideos,
  seedDemoWorkbooks,
  seedDemoAssessment,
  // After the assessment's: it grades the warm-up's submissions by hand.
  seedDemoReview,
];

// The constant is arbitrary; it only has to be the same for every API instance starting on one database.
const SEED_LOCK_KEY = 0x6b_61_64_01;

/**
 * Fills an empty database (no users) with the demo accounts and courses in one transaction; returns
 * false, changing nothing, when a user exists. Several instances starting together seed once: the
 * transaction takes an advisory lock before it looks. Only `ctx.db` is used, so a caller building its
 * context by hand (main.ts) need not make every part of it.
 */
export async function seedDemoData(ctx: Pick<AppContext, 'db'> & Partial<AppContext>): Promise<boolean> {
  // One hash for every demo account: argon2id costs ~12 ms each and the password is the same.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await hasAnyUser(tx)) return false;

    const account = (a: DemoAccount) => ({ ...a, passwordHash, displayLang: 'ja' });
    const [staff, editor, ...students] = await insertUsers(tx, [
      account(DEMO_ACCOUNTS.staff),
      account(DEMO_ACCOUNTS.editor),
      ...DEMO_ACCOUNTS.students.map(account),
    ]);
    const course = await insertCourse(tx, {
      title: DEMO_COURSE_TITLE,
      description:
        'A first course in programming: values and types, control flow, functions, lists and dictionaries, ' +
        'files, and testing your own code. Weekly assignments are graded automatically. ' +
        'Python によるプログラミング入門：値と型、制御構造、関数、リストと辞書、ファイル、テスト。',
      hasVideos: true,
      hasAssessment: true,
    });
    const secondCourse = await insertCourse(tx, {
      title: DEMO_SECOND_COURSE_TITLE,
      description: 'Lists, stacks, queues, trees, graphs and the algorithms on them, with their costs.',
      hasVideos: false,
      hasAssessment: false,
    });
    await insertMembers(tx, 'editor', course.id, [editor!.id]);
    await insertMembers(tx, 'editor', secondCourse.id, [editor!.id]);
    await insertMembers(
      tx,
      'student',
      course.id,
      students.map((s) => s.id),
    );

    const world: DemoWorld = { course, secondCourse, staff: staff!, editor: editor!, students };
    for (const step of DEMO_STEPS) await step(tx, world);
    return true;
  });
}

/** The demo course, for later seed steps and tests; null on a database that was not seeded. */
export function findDemoCourse(ctx: Pick<AppContext, 'db'>): Promise<CourseRow | null> {
  return findCourseByTitle(ctx.db, DEMO_COURSE_TITLE);
}
