// @no-test-database
import { describe, expect, it } from 'vitest';
import { percentile } from './percentile';

describe('percentile', () => {
  it('is the nearest rank: a measured value, never an interpolation', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([1.04, 2.26], 99)).toBe(2.3);
  });

  it('is 0 for no values', () => {
    expect(percentile([], 50)).toBe(0);
  });
});
