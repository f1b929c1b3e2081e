import { Type } from 'typebox';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;
/**
 * The last page a list may be asked for: its offset, `(page - 1) × limit`, stays an exact integer
 * for every page size (JavaScript numbers, and so PostgreSQL's bigint, which it is sent as).
 * Beyond, `?page=1e308` overflowed the offset and the database refused the query.
 */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/** Query fields shared by every list route; spread into a route's querystring schema. */
export const PaginationQueryFields = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: 'Page size',
    }),
  ),
};

export const PaginationSchema = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { title: 'Pagination' },
);

export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

function pageWindow(request: PageRequest): { page: number; limit: number; offset: number } {
  const page = request.page ?? 1;
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  return { page, limit, offset: (page - 1) * limit };
}

export function toPage<T>(data: T[], total: number, request: PageRequest): Page<T> {
  const { page, limit } = pageWindow(request);
  return { data, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
}

/** Pages an in-memory list (for remote listings such as a container engine's). */
export function paginateArray<T>(items: T[], request: PageRequest): Page<T> {
  const { offset, limit } = pageWindow(request);
  return toPage(items.slice(offset, offset + limit), items.length, request);
}

type PageWindow = { limit: number; offset: number };
type CountRows = PromiseLike<{ value: number }[]>;

/**
 * Runs one page of a list query and the count over the same filter together and answers
 * `{data, pagination}`, each row mapped to its view when a `view` is given.
 */
export function fetchPage<Row>(
  request: PageRequest,
  rows: (window: PageWindow) => PromiseLike<Row[]>,
  total: CountRows,
): Promise<Page<Row>>;
export function fetchPage<Row, View>(
  request: PageRequest,
  rows: (window: PageWindow) => PromiseLike<Row[]>,
  total: CountRows,
  view: (row: Row) => View,
): Promise<Page<View>>;
export async function fetchPage<Row, View>(
  request: PageRequest,
  rows: (window: PageWindow) => PromiseLike<Row[]>,
  total: CountRows,
  view?: (row: Row) => View,
): Promise<Page<Row | View>> {
  const [found, [counted]] = await Promise.all([rows(pageWindow(request)), total]);
  const data: (Row | View)[] = view ? found.map(view) : found;
  return toPage(data, counted?.value ?? 0, request);
}
