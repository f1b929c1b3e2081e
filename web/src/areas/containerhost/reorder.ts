/** `items` with the one at `from` moved to `to` (both kept within the list); the input is not changed. */
export function moveItem<Item>(items: readonly Item[], from: number, to: number): Item[] {
  const target = Math.max(0, Math.min(items.length - 1, to));
  if (from === target || from < 0 || from >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as Item);
  return next;
}

/** The sort orders a list shown in this order saves: 1, 2, 3… by position. */
export function sortOrders<Item>(items: readonly Item[]): { item: Item; sortOrder: number }[] {
  return items.map((item, at) => ({ item, sortOrder: at + 1 }));
}
