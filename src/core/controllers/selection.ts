// kube-controller-manager's --controllers: a comma-separated list where `*` turns on every
// controller that is on by default, `name` turns one on and `-name` turns one off; a name
// without `*` leaves all others off. Unknown names fail start-up, as they do in kube.

/** Parses the flag against the known names; throws with kube's wording on an unknown name. */
export function parseControllerSelection(text: string, known: readonly string[]): Set<string> {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (name !== '*' && !known.includes(name)) throw new Error(`"${name}" is not in the list of known controllers`);
  }
  const enabled = new Set<string>();
  for (const name of known) if (isEnabled(items, name)) enabled.add(name);
  return enabled;
}

/** kube's IsControllerEnabled: an explicit `-name` or `name` wins, then `*`. */
function isEnabled(items: readonly string[], name: string): boolean {
  let star = false;
  for (const item of items) {
    if (item === name) return true;
    if (item === `-${name}`) return false;
    if (item === '*') star = true;
  }
  return star;
}
