import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { fetchPage, PaginationQueryFields, paginateArray, toPage } from '../../src/core/pagination.js';

const Query = Type.Object(PaginationQueryFields);

describe('the page fields of a list query', () => {
  it('take page sizes from 1 to 100', () => {
    expect(Value.Check(Query, { limit: 1 })).toBe(true);
    expect(Value.Check(Query, { limit: 100 })).toBe(true);
    expect(Value.Check(Query, { limit: 0 })).toBe(false);
    expect(Value.Check(Query, { limit: 101 })).toBe(false);
  });

  it('take pages from 1, in whole numbers', () => {
    expect(Value.Check(Query, { page: 1 })).toBe(true);
    expect(Value.Check(Query, { page: 0 })).toBe(false);
    expect(Value.Check(Query, { page: 1.5 })).toBe(false);
  });

  it('default to the first page of 20', () => {
    expect(Value.Default(Query, {})).toEqual({ page: 1, limit: 20 });
  });
});

describe('a page of results', () => {
  it('counts the pages the total fills, the last one partly', () => {
    expect(toPage([], 0, { limit: 20 }).pagination.totalPages).toBe(0);
    expect(toPage([], 20, { limit: 20 }).pagination.totalPages).toBe(1);
    expect(toPage([], 21, { limit: 20 }).pagination.totalPages).toBe(2);
  });

  it('echoes the page and size asked for, or the defaults', () => {
    expect(toPage(['a'], 41, { page: 3, limit: 20 }).pagination).toEqual({
      page: 3,
      limit: 20,
      total: 41,
      totalPages: 3,
    });
    expect(toPage([], 5, {}).pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1 });
  });
});

describe('paging a list in memory', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('answers the items of the page asked for', () => {
    expect(paginateArray(items, { page: 2, limit: 2 })).toEqual({
      data: ['c', 'd'],
      pagination: { page: 2, limit: 2, total: 5, totalPages: 3 },
    });
  });

  it('answers the rest on the last page and nothing past it', () => {
    expect(paginateArray(items, { page: 3, limit: 2 }).data).toEqual(['e']);
    expect(paginateArray(items, { page: 4, limit: 2 }).data).toEqual([]);
  });
});

describe('paging a query', () => {
  it('reads the rows of the page, from offset (page - 1) × limit, and the count together', async () => {
    const windows: unknown[] = [];
    const page = await fetchPage(
      { page: 3, limit: 10 },
      async (window) => {
        windows.push(window);
        return [{ id: 21 }];
      },
      Promise.resolve([{ value: 21 }]),
      (row) => row.id,
    );
    expect(windows).toEqual([expect.objectContaining({ limit: 10, offset: 20 })]);
    expect(page).toEqual({ data: [21], pagination: { page: 3, limit: 10, total: 21, totalPages: 3 } });
  });

  it('counts 0 when the count query answers no row', async () => {
    const page = await fetchPage({}, async () => [], Promise.resolve([]));
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
  });
});
