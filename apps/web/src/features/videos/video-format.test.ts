import { describe, expect, it } from 'vitest';
import { clock, parseVideoInput, percent } from './video-format.ts';

describe('video formats', () => {
  it('writes durations as clocks', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(245)).toBe('4:05');
    expect(clock(3723)).toBe('1:02:03');
  });

  it('never rounds up to 100 %', () => {
    expect(percent(0.999)).toBe(99);
    expect(percent(1)).toBe(100);
  });

  it.each([
    ['76979871', { platform: 'vimeo', id: '76979871' }],
    ['https://vimeo.com/76979871', { platform: 'vimeo', id: '76979871' }],
    ['https://player.vimeo.com/video/76979871?h=abc', { platform: 'vimeo', id: '76979871' }],
    ['dQw4w9WgXcQ', { platform: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42', { platform: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://youtu.be/dQw4w9WgXcQ', { platform: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', { platform: 'youtube', id: 'dQw4w9WgXcQ' }],
    ['https://example.com/watch?v=dQw4w9WgXcQ', null],
    ['javascript:alert(1)', null],
    ['lecture one', null],
  ])('reads %s', (input, expected) => {
    expect(parseVideoInput(input)).toEqual(expected);
  });
});
