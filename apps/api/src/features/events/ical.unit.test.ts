import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import {
  escapeText,
  foldLine,
  formatDate,
  formatDuration,
  formatUtc,
  renderCalendar,
  type IcalEvent,
} from './ical.ts';

const octets = (line: string) => Buffer.byteLength(line, 'utf8');

const base: IcalEvent = {
  uid: 'event-1@lms.test',
  start: new Date('2026-05-10T01:30:00Z'),
  end: new Date('2026-05-10T03:00:00Z'),
  allDay: false,
  summary: 'Lecture',
  description: '',
  location: '',
  url: 'http://lms.test/course/1/calendar?event=1',
  categories: ['Lecture'],
  busy: true,
};

function render(events: IcalEvent[]) {
  return renderCalendar({
    prodId: '-//Kadai//Calendar feed//EN',
    name: 'Kadai: my courses',
    description: 'Test',
    refreshMinutes: 60,
    stamp: new Date('2026-05-01T00:00:00Z'),
    events,
  });
}

describe('iCalendar writer', () => {
  it('escapes backslash, semicolon, comma and line breaks, and drops control characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\rf\ng')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
    expect(escapeText('tab\there\u0000\u0007')).toBe('tab\there');
  });

  it('formats UTC times and dates', () => {
    expect(formatUtc(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z');
    expect(formatDate(new Date('2026-12-31T00:00:00Z'))).toBe('20261231');
    expect(formatDuration(60)).toBe('PT1H');
    expect(formatDuration(90)).toBe('PT90M');
  });

  it('leaves short lines alone and folds long ones at 75 octets', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const long = `DESCRIPTION:${'x'.repeat(200)}`;
    const lines = foldLine(long).split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(long);
  });

  it('never splits a Japanese character or an emoji across lines', () => {
    const long = `SUMMARY:${'期末試験のお知らせ😀'.repeat(12)}`;
    const lines = foldLine(long).split('\r\n');
    for (const line of lines) {
      expect(octets(line)).toBeLessThanOrEqual(75);
      // A split inside a character would leave a replacement character after decoding.
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
      expect(line).not.toMatch(/[\uD800-\uDBFF]$/);
    }
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(long);
  });

  it('writes a calendar with CRLF line ends that ical.js reads back', () => {
    const text = render([
      base,
      { ...base, uid: 'deadline@lms.test', end: base.start, summary: 'Due', busy: false },
      {
        ...base,
        uid: 'all-day@lms.test',
        allDay: true,
        start: new Date('2026-05-11T00:00:00Z'),
        end: new Date('2026-05-12T00:00:00Z'),
        summary: 'Trip',
      },
    ]);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const [timed, point, allDay] = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(timed!.startDate.toJSDate().toISOString()).toBe('2026-05-10T01:30:00.000Z');
    expect(timed!.endDate.toJSDate().toISOString()).toBe('2026-05-10T03:00:00.000Z');
    expect(timed!.component.getFirstPropertyValue('transp')).toBe('OPAQUE');
    // A point in time has no DTEND; its end is its start.
    expect(point!.component.hasProperty('dtend')).toBe(false);
    expect(point!.component.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
    expect(allDay!.startDate.isDate).toBe(true);
    expect(allDay!.startDate.toString()).toBe('2026-05-11');
    // DTEND of dates is exclusive: the day after the last one.
    expect(allDay!.endDate.toString()).toBe('2026-05-13');
  });
});
