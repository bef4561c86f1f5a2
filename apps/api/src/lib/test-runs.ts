/**
 * The sandbox runs this API process makes itself (not through a grader): a student's precheck and the
 * check of a pytest module an editor saves. They share its few slots, first come first served, so a
 * burst of either never takes the whole host from the API.
 */
import { Semaphore } from '@kadai/grader/evaluate';

/** Sandbox runs at once in one API process; the rest wait their turn. */
export const TEST_RUN_SLOTS = 2;

export const testRunSlots = new Semaphore(TEST_RUN_SLOTS);
