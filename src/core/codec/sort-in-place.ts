// Sorting the short arrays the create path sorts by the dozen (a fieldset level, a map's keys):
// Array.prototype.sort copies the array into a work array and builds its merge state on every
// call, which for a Deployment create was ~15 kB of garbage per request. An insertion sort in
// place allocates nothing and, for a handful of items, compares about as often. Both are stable,
// so the result is the same.

/** Up to this many items are insertion-sorted; longer arrays go to Array.prototype.sort. */
const INSERTION_MAX = 16;

/** Sorts `items` in place (stable) and returns it, like Array.prototype.sort. */
export function sortInPlace<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > INSERTION_MAX) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    while (j >= 0 && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}
