import { describe, expect, it } from 'vitest';
import { fetchAllPages } from './all-pages';

/** A list of `total` numbers paginated like the gateway's. */
const listOf = (total: number) => {
  const asked: number[] = [];
  const fetchPage = async ({ page, limit }: { page: number; limit: number }) => {
    asked.push(page);
    const data = Array.from({ length: total }, (_, at) => at).slice((page - 1) * limit, page * limit);
    return { data, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
  };
  return { asked, fetchPage };
};

describe('reading every page of a list', () => {
  it('reads one page when the list fits in it', async () => {
    const list = listOf(7);
    expect(await fetchAllPages(list.fetchPage)).toEqual({ items: [0, 1, 2, 3, 4, 5, 6], total: 7 });
    expect(list.asked).toEqual([1]);
  });

  it('reads the pages one after another until the last', async () => {
    const list = listOf(250);
    const { items, total } = await fetchAllPages(list.fetchPage);
    expect(items).toHaveLength(250);
    expect(items.at(-1)).toBe(249);
    expect(total).toBe(250);
    expect(list.asked).toEqual([1, 2, 3]);
  });

  it('stops at the most it may read and answers the whole size, so the page can say it was cut', async () => {
    const list = listOf(450);
    const { items, total } = await fetchAllPages(list.fetchPage, 150);
    expect(items).toHaveLength(150);
    expect(total).toBe(450);
    expect(list.asked).toEqual([1, 2]);
  });

  it('answers an empty list after one request', async () => {
    const list = listOf(0);
    expect(await fetchAllPages(list.fetchPage)).toEqual({ items: [], total: 0 });
    expect(list.asked).toEqual([1]);
  });
});
