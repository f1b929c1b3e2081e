import { describe, expect, it } from 'vitest';
import { moveItem, sortOrders } from './reorder';

describe('reordering resources', () => {
  it('moves an item up and down', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });

  it('keeps an item that cannot move further where it is', () => {
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('numbers the list from 1 by position', () => {
    expect(sortOrders(['x', 'y'])).toEqual([
      { item: 'x', sortOrder: 1 },
      { item: 'y', sortOrder: 2 },
    ]);
  });
});
