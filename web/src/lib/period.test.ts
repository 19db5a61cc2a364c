import { describe, expect, it } from 'vitest';
import { timeLeft } from './period';

const NOW = Date.parse('2026-03-11T10:00:00Z');

describe('the time left in a board’s period', () => {
  it.each([
    ['2026-03-16T00:00:00Z', 'ends in 4 days'],
    ['2026-03-12T22:00:00Z', 'ends in 36 hours'],
    ['2026-03-11T12:00:00Z', 'ends in 2 hours'],
    ['2026-03-11T11:30:00Z', 'ends in 1 hour'],
    ['2026-03-11T10:20:00Z', 'ends in less than an hour'],
    ['2026-03-11T10:00:00Z', 'has ended'],
  ])('until %s reads "%s"', (endsAt, words) => {
    expect(timeLeft(endsAt, NOW)).toBe(words);
  });
});
