import { useSearchParams } from 'react-router';

/**
 * A list's filters kept in the address (`?status=failed&channelId=…`), like its page: a link, a
 * reload or a shared address shows the same rows. Changing one starts the list on its first page.
 * The values are taken as the address has them: the API answers a value it does not know with a 400,
 * which the list shows.
 */
export function useAddressFilters<Filters extends Partial<Record<string, string>>>(
  names: readonly (keyof Filters & string)[],
) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(
    names.flatMap((name) => {
      const value = params.get(name);
      return value ? [[name, value]] : [];
    }),
  ) as Filters;
  const setFilter = (name: keyof Filters & string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    });
  return { filters, setFilter };
}
