// Go's %#v rendering of the few value shapes that appear in v1.23 validation messages. field.Error
// prints maps and structs with %#v (e.g. `map[string]string{"app":"x"}`), which JSON would not.

function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** `map[string]string{"a":"1", "b":"2"}` (keys sorted, as fmt does); nil map → `map[string]string(nil)`. */
export function goStringMap(m: Record<string, string> | undefined | null): string {
  if (!m) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(m[k]))}`).join(', ')}}`;
}

/** `[]string{"a", "b"}`; nil → `[]string(nil)`. */
export function goStringSlice(a: string[] | undefined | null, type = 'string'): string {
  if (!a) return `[]${type}(nil)`;
  return `[]${type}{${a.map((s) => goQuote(String(s))).join(', ')}}`;
}

/** metav1.LabelSelector as %#v prints it (a pointer is dereferenced by field.Error first). */
export function goLabelSelector(sel: any): string {
  if (!sel || typeof sel !== 'object') return 'null';
  const ml = goStringMap(sel.matchLabels);
  let me = '[]v1.LabelSelectorRequirement(nil)';
  if (Array.isArray(sel.matchExpressions)) {
    const items = sel.matchExpressions.map(
      (r: any) => `v1.LabelSelectorRequirement{Key:${goQuote(String(r?.key ?? ''))}, Operator:${goQuote(String(r?.operator ?? ''))}, Values:${goStringSlice(r?.values)}}`,
    );
    me = `[]v1.LabelSelectorRequirement{${items.join(', ')}}`;
  }
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

/** intstr.IntOrString as %#v prints it (Type 0 = Int, 1 = String). */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'number') return `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`;
  return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(String(v ?? ''))}}`;
}

/**
 * apimachinery's Semantic.DeepEqual on JSON values: like a plain deep compare, except that a
 * missing field, null, an empty list and an empty map count as equal (Go's nil vs empty).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => semanticEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!semanticEqual(ao[k], bo[k])) return false;
  return true;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}
