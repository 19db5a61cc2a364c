import { describe, expect, it } from 'vitest';
import { seededShuffle } from './shuffle';

const items = ['a', 'b', 'c', 'd', 'e', 'f'];

describe('seeded shuffle', () => {
  it('gives the same order for the same seed', () => {
    expect(seededShuffle(items, 'web-1:head-dimension')).toEqual(seededShuffle(items, 'web-1:head-dimension'));
  });

  it('keeps every item once and leaves the input alone', () => {
    const copy = [...items];
    expect([...seededShuffle(items, 'x')].sort()).toEqual(items);
    expect(items).toEqual(copy);
  });

  it('orders differently for different learners', () => {
    const orders = new Set(Array.from({ length: 20 }, (_, n) => seededShuffle(items, `learner-${n}:key`).join('')));
    expect(orders.size).toBeGreaterThan(10);
  });
});
