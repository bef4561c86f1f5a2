import { describe, expect, it } from 'vitest';
import { editorTestCase } from '../../test/test-cases.ts';
import { emptyTestCaseValues, testCaseBody, testCaseValues } from './test-case-form.ts';

const pytest = { ...emptyTestCaseValues(), kind: 'pytest' as const, test_code: 'def test_a():\n    pass\n' };

describe('what the test-case form sends', () => {
  it('gives an io or script test its points, never points_auto', () => {
    expect(testCaseBody(emptyTestCaseValues(), null)).toMatchObject({ kind: 'io', points: 1 });
    expect(testCaseBody(emptyTestCaseValues(), null)).not.toHaveProperty('points_auto');
    const script = { ...emptyTestCaseValues(), kind: 'script' as const, points: 3 };
    expect(testCaseBody(script, editorTestCase())).toMatchObject({ points: 3 });
  });

  it('leaves a new pytest test’s points out, so they follow its tests', () => {
    const body = testCaseBody(pytest, null);
    expect(body).not.toHaveProperty('points');
    expect(body).not.toHaveProperty('points_auto');
  });

  it('sends points an editor set, without points_auto', () => {
    const body = testCaseBody({ ...pytest, points: 6, points_auto: false }, null);
    expect(body).toMatchObject({ points: 6 });
    expect(body).not.toHaveProperty('points_auto');
  });

  it('asks a saved test with points of its own to follow its tests again', () => {
    const saved = editorTestCase({ kind: 'pytest', points: 10, points_auto: false });
    const body = testCaseBody({ ...testCaseValues(saved), points_auto: true }, saved);
    expect(body).toMatchObject({ points_auto: true });
    expect(body).not.toHaveProperty('points');
  });

  it('sends neither for a saved test whose points already follow its tests', () => {
    const saved = editorTestCase({ kind: 'pytest', points: 4, points_auto: true });
    const body = testCaseBody(testCaseValues(saved), saved);
    expect(body).not.toHaveProperty('points');
    expect(body).not.toHaveProperty('points_auto');
  });
});
