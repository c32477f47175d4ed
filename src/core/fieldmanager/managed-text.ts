// The JSON text of the managedFields list the engine built last, remembered by list identity so
// the stored text can splice it in instead of stringifying freshly built fieldsV1 objects
// (objects.ts: toStoredText). One slot, not a WeakMap: a create stores its object right after
// tracking it, and weak tables cost more in garbage collection than the text saves. Like
// fieldsv1.ts's caches, this relies on the engine's output not being mutated once handed out;
// a list that was copied, rebuilt or superseded simply has no text here.
let lastEntries: object | undefined;
let lastText = '';

export function rememberManagedFieldsText(entries: readonly object[], text: string): void {
  lastEntries = entries;
  lastText = text;
}

/** JSON.stringify(entries) when `entries` is the list the engine built and remembered last. */
export function managedFieldsText(entries: unknown): string | undefined {
  return entries !== undefined && entries === lastEntries ? lastText : undefined;
}
