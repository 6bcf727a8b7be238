/**
 * The next item a lead works on after `id` in a list's order (wrapping around): the first that
 * `wanted` accepts, other than `id` itself; from the start when `id` is not in the list (it was
 * just settled and left it). Null when none is left.
 */
export function nextAfter<T extends { id: string }>(items: readonly T[], id: string, wanted: (item: T) => boolean = () => true): T | null {
  const at = items.findIndex((item) => item.id === id);
  const order = at < 0 ? items : [...items.slice(at + 1), ...items.slice(0, at)];
  return order.find((item) => item.id !== id && wanted(item)) ?? null;
}
