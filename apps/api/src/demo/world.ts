import type { Tx } from '../db/client.ts';
import type { CourseRow } from '../features/courses/courses.service.ts';
import type { UserRow } from '../features/users/users.service.ts';

/*
 * What the demo seed (seed.ts) hands each feature's demo step. A file of its own so that the steps
 * (features/<name>/demo.ts) import these types without importing seed.ts, which imports them.
 */

/** What the seed made, handed to each later step so it can add its own demo content. */
export interface DemoWorld {
  course: CourseRow;
  secondCourse: CourseRow;
  staff: UserRow;
  editor: UserRow;
  students: UserRow[];
}

/** A step of the demo seed, run in the seed's transaction after the accounts and courses exist. */
export type DemoStep = (tx: Tx, world: DemoWorld) => Promise<void>;
