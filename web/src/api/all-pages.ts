import type { Answer } from './types';

type PageInfo = Answer<'/api/admin/users', 'get'>['pagination'];

/** The most items the gateway answers in one page of a list. */
export const PAGE_LIMIT = 100;

/**
 * Every item of a paginated list, a page of {@link PAGE_LIMIT} after another, up to `max` items (a
 * choice list, the order of a node's containers). `total` is the list's size: more than
 * `items.length` when the list was cut at `max`, which the page should say.
 */
export async function fetchAllPages<Item>(
  fetchPage: (query: { page: number; limit: number }) => Promise<{ data: Item[]; pagination: PageInfo }>,
  max = 1000,
): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  for (let page = 1; ; page += 1) {
    const { data, pagination } = await fetchPage({ page, limit: PAGE_LIMIT });
    items.push(...data);
    if (data.length === 0 || page >= pagination.totalPages || items.length >= max)
      return { items: items.slice(0, max), total: pagination.total };
  }
}
