import { describe, expect, it } from 'vitest';
import { choiceMarks, markOf } from './review-marks.ts';

const options = [
  { id: 'a', text: '3' },
  { id: 'b', text: '3.5' },
  { id: 'c', text: '4' },
];
const single = { id: 1, kind: 'single' as const, options };
const multiple = { id: 2, kind: 'multiple' as const, options };
const trueFalse = { id: 3, kind: 'true_false' as const, options: [] };
const yesNo = (value: boolean) => (value ? 'True' : 'False');
const marks = (result: ReturnType<typeof choiceMarks>) => result?.map((option) => markOf(option));

describe('marks of a reviewed choice question', () => {
  it('marks the choice right or wrong, and every correct option, once the key is there', () => {
    expect(marks(choiceMarks(single, 'b', { correct: 'a' }, yesNo))).toEqual(['correct', 'wrong', 'none']);
    expect(marks(choiceMarks(single, 'a', { correct: 'a' }, yesNo))).toEqual(['right', 'none', 'none']);
    expect(marks(choiceMarks(multiple, ['a', 'b'], { correct: ['a', 'c'] }, yesNo))).toEqual([
      'right',
      'wrong',
      'correct',
    ]);
  });

  it('marks only the choice while the key is hidden, and nothing without an answer', () => {
    expect(marks(choiceMarks(single, 'b', null, yesNo))).toEqual(['none', 'chosen', 'none']);
    expect(marks(choiceMarks(multiple, null, { correct: ['c'] }, yesNo))).toEqual([
      'none',
      'none',
      'correct',
    ]);
  });

  it('lists True and False as the options of a true/false question', () => {
    const result = choiceMarks(trueFalse, false, { correct: true }, yesNo);
    expect(result?.map((option) => option.text)).toEqual(['True', 'False']);
    expect(marks(result)).toEqual(['correct', 'wrong']);
  });

  it('leaves text, number and ordering answers to words', () => {
    for (const kind of ['short_text', 'numeric', 'ordering'] as const) {
      expect(choiceMarks({ id: 4, kind, options: [] }, 'x', null, yesNo)).toBeNull();
    }
  });
});
