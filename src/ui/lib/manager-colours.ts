// How field managers are told apart: a colour from the Okabe–Ito palette (distinguishable with
// the common colour-vision deficiencies) plus a short mark (a letter or two) drawn on it, so a
// manager is identified even in greyscale or when colours repeat. The same manager name gets the
// same colour on every object and reload (derived from the name), nudged only when two managers of
// one object would otherwise share it.
export interface LegendEntry {
  manager: string;
  /** A CSS colour usable on light and dark backgrounds. */
  colour: string;
  /** The text colour for the mark drawn on `colour` (contrast ≥ 4.5:1). */
  ink: string;
  /** One or two characters naming the manager on the gutter and the legend. */
  mark: string;
  /** The distinct operations this manager holds fields by (Apply, Update). */
  operations: string[];
  /** Subresources it wrote through ('' for the main resource). */
  subresources: string[];
}

/** Okabe & Ito's colour-blind-safe palette, with grey in place of black (dark themes). */
export const PALETTE: ReadonlyArray<{ colour: string; ink: string }> = [
  { colour: '#E69F00', ink: '#000000' }, // orange
  { colour: '#56B4E9', ink: '#000000' }, // sky blue
  { colour: '#009E73', ink: '#000000' }, // bluish green
  { colour: '#F0E442', ink: '#000000' }, // yellow
  { colour: '#0072B2', ink: '#ffffff' }, // blue
  { colour: '#D55E00', ink: '#000000' }, // vermillion
  { colour: '#CC79A7', ink: '#000000' }, // reddish purple
  { colour: '#999999', ink: '#000000' }, // grey
];

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
  return hashName(name) % PALETTE.length;
}

/**
 * Candidate marks for a name, best first: its initial; then the initial with the initial of a
 * later word (`manager-b` → `Mb`, `kube-scheduler` → `Ks`) or with its last letter; then with
 * any later letter; then numbered.
 */
function markCandidates(name: string): string[] {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const letters = words.join('');
  const first = (letters[0] ?? '?').toUpperCase();
  const out = [first];
  for (const w of words.slice(1)) out.push(first + w[0]!.toLowerCase());
  if (letters.length > 1) out.push(first + letters.at(-1)!.toLowerCase());
  for (const c of letters.slice(1)) out.push(first + c.toLowerCase());
  for (let n = 2; n < 100; n++) out.push(`${first}${n}`);
  return out;
}

/** Legend entries, one per manager name, sorted by name, each with its colour and mark. */
export function colourForManagers(owners: ReadonlyArray<{ manager: string; operation: string; subresource: string }>): LegendEntry[] {
  const byName = new Map<string, LegendEntry>();
  for (const o of owners) {
    let entry = byName.get(o.manager);
    if (!entry) byName.set(o.manager, (entry = { manager: o.manager, colour: '', ink: '', mark: '', operations: [], subresources: [] }));
    if (o.operation && !entry.operations.includes(o.operation)) entry.operations.push(o.operation);
    if (!entry.subresources.includes(o.subresource)) entry.subresources.push(o.subresource);
  }
  const entries = [...byName.values()].sort((a, b) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0));
  const taken = new Set<number>();
  const marks = new Set<string>();
  for (const e of entries) {
    let slot = hueSlot(e.manager);
    // Linear probing in name order keeps the outcome deterministic for a given set of managers;
    // past eight managers colours repeat, and the marks still tell them apart.
    for (let tries = 0; taken.has(slot) && tries < PALETTE.length; tries++) slot = (slot + 1) % PALETTE.length;
    if (taken.size < PALETTE.length) taken.add(slot);
    e.colour = PALETTE[slot]!.colour;
    e.ink = PALETTE[slot]!.ink;
    e.mark = markCandidates(e.manager).find((m) => !marks.has(m)) ?? '?';
    marks.add(e.mark);
  }
  return entries;
}
