import { describe, expect, it } from 'vitest';
import { sparkPath, sparkPoints } from './sparkline';

describe('a sparkline', () => {
  it('spreads the values across the width with the largest at the top', () => {
    expect(sparkPoints([0, 50, 100], 104, 54, 2)).toEqual([
      { x: 2, y: 52, index: 0 },
      { x: 52, y: 27, index: 1 },
      { x: 102, y: 2, index: 2 },
    ]);
  });

  it('leaves out missing values and breaks the line there', () => {
    const points = sparkPoints([10, null, 10, 10], 32, 12, 1);
    expect(points.map((point) => point.index)).toEqual([0, 2, 3]);
    expect(sparkPath(points)).toBe('M1.0 1.0 M21.0 1.0 L31.0 1.0');
  });

  it('puts a single value in the middle and all zeros on the floor', () => {
    expect(sparkPoints([0], 20, 10, 0)).toEqual([{ x: 10, y: 10, index: 0 }]);
  });
});
