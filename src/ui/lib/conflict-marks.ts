// Where the learner's own configuration collides with the live object, before anything is sent:
// each field a dry-run apply's 409 names (details.causes[].field) is found in the editor's YAML
// text, with the value there ("yours"), the live value and the manager that owns it, so the editor
// can mark that very line ("yours: 5 / live: 2, owned by alice").
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { getAtPath, parseFieldPath } from './config-edit';

export interface ConflictMark {
  /** 1-based line of the field in the configuration text. */
  line: number;
  field: string;
  yours: string;
  live: string;
  /** The manager the 409 names; empty when its message does not say. */
  owner: string;
  /** One line for the editor: `yours: 5 / live: 2, owned by alice`. */
  message: string;
}

const show = (v: unknown) => (v === undefined ? '(not set)' : typeof v === 'string' ? v : JSON.stringify(v));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The manager a conflict cause names: kube writes `conflict with "alice" using v1`. */
export function conflictOwner(message: string | undefined): string {
  return /conflict with "((?:[^"\\]|\\.)*)"/.exec(message ?? '')?.[1] ?? '';
}

/** The offset in the text where the field's key (or list item) starts, if the text has it. */
function fieldOffset(root: Node | null, path: string): number | undefined {
  const steps = parseFieldPath(path);
  if (!steps?.length) return undefined;
  let node: unknown = root;
  let offset: number | undefined;
  for (const step of steps) {
    if ('field' in step) {
      if (!isMap(node)) return undefined;
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === step.field);
      if (!pair) return undefined;
      offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
      continue;
    }
    if (!isSeq(node)) return undefined;
    const items = node.items as Node[];
    const index =
      'index' in step
        ? step.index
        : 'value' in step
          ? items.findIndex((i) => same(i?.toJSON(), step.value))
          : items.findIndex((i) => {
              const v = i?.toJSON() as Record<string, unknown> | null;
              return v !== null && typeof v === 'object' && Object.entries(step.key).every(([k, want]) => same(v[k], want));
            });
    const item = items[index];
    if (!item) return undefined;
    offset = item.range?.[0];
    node = item;
  }
  return offset;
}

/** The marks for a 409's causes in the configuration text; causes not found in the text are left out. */
export function conflictMarks(configText: string, live: unknown, causes: ReadonlyArray<{ field?: string; message?: string }>): ConflictMark[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(configText, { lineCounter });
  if (doc.errors.length) return [];
  const config = doc.toJSON() as unknown;
  const marks: ConflictMark[] = [];
  for (const cause of causes) {
    if (!cause.field) continue;
    const offset = fieldOffset(doc.contents, cause.field);
    if (offset === undefined) continue;
    const yours = show(getAtPath(config, cause.field));
    const liveValue = show(getAtPath(live, cause.field));
    const owner = conflictOwner(cause.message);
    marks.push({ line: lineCounter.linePos(offset).line, field: cause.field, yours, live: liveValue, owner, message: `yours: ${yours} / live: ${liveValue}${owner ? `, owned by ${owner}` : ''}` });
  }
  return marks.sort((a, b) => a.line - b.line);
}
