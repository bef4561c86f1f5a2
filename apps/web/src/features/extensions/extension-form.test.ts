import type { Extension } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import {
  defaultDates,
  grantValues,
  prefillOf,
  toExtensionGrant,
  twoDaysLater,
  type GrantItem,
  type GrantItems,
} from './extension-form.ts';
import { inZone } from '../../test/zone.ts';

const LOOPS: GrantItem = {
  id: 1,
  title: 'Loops',
  opens_at: '2026-04-01T00:00:00.000Z',
  due_at: '2026-04-08T14:59:00.000Z',
  late_until: null,
  time_limit_minutes: null,
};
const TIMED: GrantItem = {
  id: 3,
  title: 'Quiz 1',
  opens_at: '2026-04-01T00:00:00.000Z',
  due_at: '2026-04-10T03:00:00.000Z',
  late_until: null,
  time_limit_minutes: 30,
};
const UNTIMED: GrantItem = { ...TIMED, id: 5, title: 'Survey', time_limit_minutes: null };
const ITEMS: GrantItems = { assignment: [LOOPS], quiz: [TIMED, UNTIMED] };
/** Before the items' dates. */
const NOW = new Date('2026-04-01T00:00:00.000Z');

describe('the grant dialog’s defaults', () => {
  it('moves an assignment’s due date two days on, at the same time of day', () => {
    inZone('Asia/Tokyo', () => {
      expect(defaultDates('assignment', LOOPS, NOW)).toEqual({
        due_at: '2026-04-10T23:59',
        late_until: '',
        closes_at: '',
        extra_minutes: '',
      });
    });
  });

  it('counts two days from today, at the item’s time, once the item’s date has passed', () => {
    inZone('Asia/Tokyo', () => {
      // Due 23:59 on 8 April; on 20 May at 10:00 the default is 22 May, 23:59.
      expect(defaultDates('assignment', LOOPS, new Date('2026-05-20T01:00:00.000Z')).due_at).toBe(
        '2026-05-22T23:59',
      );
    });
  });

  it('keeps the time of day across a daylight-saving change', () => {
    inZone('America/New_York', () => {
      // 23:59 on 7 March 2026 is EST; two days on, 9 March, is EDT.
      expect(twoDaysLater('2026-03-08T04:59:00.000Z', new Date('2026-03-01T00:00:00.000Z'))).toBe(
        '2026-03-09T23:59',
      );
    });
  });

  it('leaves a timed quiz empty (extra minutes are the usual ask) and closes an untimed one later', () => {
    inZone('Asia/Tokyo', () => {
      expect(defaultDates('quiz', TIMED, NOW)).toEqual({
        due_at: '',
        late_until: '',
        closes_at: '',
        extra_minutes: '',
      });
      expect(defaultDates('quiz', UNTIMED, NOW).closes_at).toBe('2026-04-12T12:00');
    });
  });

  it('starts from the student and item it was opened with, and no reason', () => {
    inZone('Asia/Tokyo', () => {
      expect(grantValues({ kind: 'assignment', itemId: 1, userIds: [4] }, ITEMS, NOW)).toEqual({
        kind: 'assignment',
        item: '1',
        students: ['4'],
        due_at: '2026-04-10T23:59',
        late_until: '',
        closes_at: '',
        extra_minutes: '',
        reason: '',
      });
      // An item not in the lists (removed meanwhile) is left to choose.
      expect(grantValues({ kind: 'quiz', itemId: 99 }, ITEMS).item).toBeNull();
    });
  });

  it('opens a change with the extension’s own dates', () => {
    inZone('Asia/Tokyo', () => {
      const extension: Extension = {
        kind: 'quiz',
        item_id: 3,
        item_title: 'Quiz 1',
        user: { id: 4, email: 'taro@example.jp', first_name: 'Taro', last_name: 'Yamada' },
        due_at: null,
        late_until: null,
        closes_at: '2026-04-11T03:00:00.000Z',
        extra_minutes: 15,
        course_due_at: TIMED.due_at,
        course_late_until: null,
        time_limit_minutes: 30,
        reason: 'Illness',
        granted_by: null,
        granted_at: '2026-04-01T00:00:00.000Z',
      };
      expect(grantValues(prefillOf(extension), ITEMS)).toMatchObject({
        kind: 'quiz',
        item: '3',
        students: ['4'],
        closes_at: '2026-04-11T12:00',
        extra_minutes: 15,
        reason: '',
      });
    });
  });
});

describe('the grant body', () => {
  const base = { item: '1', students: ['4', '5'], reason: '  Illness  ', extra_minutes: '' as const };

  it('sends an assignment’s dates as instants, a missing late cut-off as null', () => {
    inZone('Asia/Tokyo', () => {
      expect(
        toExtensionGrant(
          { ...base, kind: 'assignment', due_at: '2026-04-10T23:59', late_until: '', closes_at: '' },
          LOOPS,
        ),
      ).toEqual({
        kind: 'assignment',
        item_id: 1,
        user_ids: [4, 5],
        due_at: '2026-04-10T14:59:00.000Z',
        late_until: null,
        reason: 'Illness',
      });
    });
  });

  it('sends a quiz’s closing time and minutes, and no minutes for an untimed quiz', () => {
    inZone('Asia/Tokyo', () => {
      const values = {
        ...base,
        kind: 'quiz' as const,
        item: '3',
        due_at: '',
        late_until: '',
        closes_at: '',
        extra_minutes: 20,
      };
      expect(toExtensionGrant(values, TIMED)).toEqual({
        kind: 'quiz',
        item_id: 3,
        user_ids: [4, 5],
        closes_at: null,
        extra_minutes: 20,
        reason: 'Illness',
      });
      expect(toExtensionGrant({ ...values, closes_at: '2026-04-12T12:00' }, UNTIMED)).toMatchObject({
        closes_at: '2026-04-12T03:00:00.000Z',
        extra_minutes: null,
      });
    });
  });
});
