import { describe, expect, it } from 'vitest';
import { messageLanguage } from './language.ts';

describe('messageLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['ja', 'ja'],
    ['ja-JP,ja;q=0.9,en;q=0.8', 'ja'],
    ['en-US', 'en'],
    ['en-US,ja;q=0.5', 'en'],
    ['fr-FR,ja;q=0.7,en;q=0.5', 'ja'],
    ['en;q=0.2,ja;q=0.9', 'ja'],
    ['ja;q=0,en', 'en'],
    ['de', 'en'],
  ])('%s → %s', (header, expected) => {
    expect(messageLanguage(header)).toBe(expected);
  });
});
