// The JSON text of the managedFields lists the engine built last, remembered by list identity so
// the stored text can splice it in instead of stringifying freshly built fieldsV1 objects
// (objects.ts: toStoredText). A small ring of slots, not a WeakMap: weak tables cost more in
// garbage collection than the text saves. Not one slot either: a create awaits admission between
// tracking its fields and writing its text, so with requests in flight the other creates' lists
// took the slot in between and 93 % of the lookups missed at 16 in flight (decision 0052). Like
// fieldsv1.ts's caches, this relies on the engine's output not being mutated once handed out; a
// list that was copied, rebuilt or pushed out of the ring simply has no text here.

/** More than the writes a server has between tracking and storing (16 in flight, controllers). */
const SLOTS = 64;
const lists: Array<object | undefined> = new Array<object | undefined>(SLOTS).fill(undefined);
const texts: string[] = new Array<string>(SLOTS).fill('');
let next = 0;

export function rememberManagedFieldsText(entries: readonly object[], text: string): void {
  lists[next] = entries;
  texts[next] = text;
  next = (next + 1) % SLOTS;
}

/** JSON.stringify(entries) when `entries` is one of the lists the engine built and remembered last. */
export function managedFieldsText(entries: unknown): string | undefined {
  if (entries === undefined) return undefined;
  // Newest first: a create usually asks for the list it remembered a moment ago.
  for (let i = 1; i <= SLOTS; i++) {
    const at = (next - i + SLOTS) % SLOTS;
    if (lists[at] === entries) return texts[at];
  }
  return undefined;
}
