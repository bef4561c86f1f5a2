import { describe, expect, it } from 'vitest';
import { pytestStatus } from './pytest-check.ts';

describe("the grader's pytest check", () => {
  it("names Debian's pytest, or says how to install it", async () => {
    expect(await pytestStatus()).toMatch(/^pytest \d+\.\d+/);
    expect(await pytestStatus('/nonexistent/python3')).toBe(
      'no pytest: pytest test cases cannot run here (apt-get install -y python3-pytest)',
    );
  });
});
