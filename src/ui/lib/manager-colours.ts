// Stable colours for field managers: the same manager name gets the same hue on every object and
// every reload (derived from the name, not from the order managers happen to appear in), nudged
// only when two managers of the same object would otherwise share a hue.
export interface LegendEntry {
  manager: string;
  /** A CSS colour usable on light and dark backgrounds. */
  colour: string;
  /** The distinct operations this manager holds fields by (Apply, Update). */
  operations: string[];
  /** Subresources it wrote through ('' for the main resource). */
  subresources: string[];
}

const HUE_STEPS = 24; // 15° apart: distinguishable, and enough room to avoid clashes

/** FNV-1a over UTF-16 code units: small, deterministic, well spread. */
export function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function hueSlot(name: string): number {
  return hashName(name) % HUE_STEPS;
}

export function colourOfSlot(slot: number): string {
  return `hsl(${slot * (360 / HUE_STEPS)} 70% 45%)`;
}

/** Legend entries, one per manager name, sorted by name, each with its colour. */
export function colourForManagers(owners: ReadonlyArray<{ manager: string; operation: string; subresource: string }>): LegendEntry[] {
  const byName = new Map<string, LegendEntry>();
  for (const o of owners) {
    let entry = byName.get(o.manager);
    if (!entry) byName.set(o.manager, (entry = { manager: o.manager, colour: '', operations: [], subresources: [] }));
    if (o.operation && !entry.operations.includes(o.operation)) entry.operations.push(o.operation);
    if (!entry.subresources.includes(o.subresource)) entry.subresources.push(o.subresource);
  }
  const entries = [...byName.values()].sort((a, b) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0));
  const taken = new Set<number>();
  for (const e of entries) {
    let slot = hueSlot(e.manager);
    // Linear probing in name order keeps the outcome deterministic for a given set of managers.
    for (let tries = 0; taken.has(slot) && tries < HUE_STEPS; tries++) slot = (slot + 1) % HUE_STEPS;
    taken.add(slot);
    e.colour = colourOfSlot(slot);
  }
  return entries;
}
