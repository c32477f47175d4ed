// Edits an apply configuration at a kube field path (`.spec.replicas`,
// `.spec.containers[name="c"].image`, `.metadata.finalizers[="x"]`, `.args[0]`): the conflict
// preview's "stop managing" (drop the field) and "share ownership" (copy the live value) ways out.
type Json = unknown;
type Step = { field: string } | { key: Record<string, Json> } | { value: Json } | { index: number };

/** Splits a kube field path into steps; undefined when it does not parse. */
export function parseFieldPath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[=([^\]]*)\]|\[([^\]=]+=[^\]]*)\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    if (!(m = re.exec(path))) return undefined;
    at = re.lastIndex;
    try {
      if (m[1] !== undefined) steps.push({ field: m[1] });
      else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
      else if (m[3] !== undefined) steps.push({ value: JSON.parse(m[3]) });
      else {
        const key: Record<string, Json> = {};
        for (const part of m[4]!.split(/,(?=[^,=]+=)/)) {
          const eq = part.indexOf('=');
          // defineProperty: a key field named `__proto__` stays a key.
          Object.defineProperty(key, part.slice(0, eq), { value: JSON.parse(part.slice(eq + 1)), enumerable: true, writable: true, configurable: true });
        }
        steps.push({ key });
      }
    } catch {
      return undefined;
    }
  }
  return steps;
}

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/** Where a step lands inside a container: a property name or an array index (-1 when absent). */
function locate(container: Json, step: Step): string | number | undefined {
  if ('field' in step) return container !== null && typeof container === 'object' && !Array.isArray(container) ? step.field : undefined;
  if (!Array.isArray(container)) return undefined;
  if ('index' in step) return step.index < container.length ? step.index : -1;
  if ('value' in step) return container.findIndex((x) => same(x, step.value));
  return container.findIndex((x) => x !== null && typeof x === 'object' && Object.entries(step.key).every(([k, v]) => same((x as Record<string, Json>)[k], v)));
}

export function getAtPath(obj: Json, path: string): Json {
  let cur = obj;
  for (const step of parseFieldPath(path) ?? []) {
    const at = locate(cur, step);
    if (at === undefined || at === -1) return undefined;
    cur = (cur as Record<string | number, Json>)[at];
  }
  return cur;
}

/** A copy of `config` without the field; unchanged when the path is not in it. */
export function dropAtPath<T>(config: T, path: string): T {
  const steps = parseFieldPath(path);
  if (!steps?.length) return config;
  const copy = structuredClone(config) as Json;
  let cur = copy;
  for (const step of steps.slice(0, -1)) {
    const at = locate(cur, step);
    if (at === undefined || at === -1) return config;
    cur = (cur as Record<string | number, Json>)[at];
  }
  const at = locate(cur, steps[steps.length - 1]!);
  if (at === undefined || at === -1) return config;
  if (typeof at === 'number') (cur as Json[]).splice(at, 1);
  else delete (cur as Record<string, Json>)[at];
  return copy as T;
}

/** A copy of `config` with the field set to its value in `live`, creating parent maps as needed. */
export function setFromLive<T>(config: T, live: Json, path: string): T {
  const steps = parseFieldPath(path);
  const value = getAtPath(live, path);
  if (!steps?.length || value === undefined) return config;
  const copy = structuredClone(config) as Json;
  let cur = copy;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const at = locate(cur, step);
    if (at === undefined) return config;
    if (at === -1) {
      // A list item the config does not have yet: take the whole live item.
      (cur as Json[]).push(structuredClone(getAtPath(live, pathOf(steps.slice(0, i + 1)))));
      return copy as T;
    }
    const holder = cur as Record<string | number, Json>;
    if (last) holder[at] = structuredClone(value);
    else if (holder[at] === undefined) holder[at] = 'field' in steps[i + 1]! ? {} : [];
    cur = holder[at];
  }
  return copy as T;
}

function pathOf(steps: Step[]): string {
  return steps
    .map((s) => ('field' in s ? `.${s.field}` : 'index' in s ? `[${s.index}]` : 'value' in s ? `[=${JSON.stringify(s.value)}]` : `[${Object.entries(s.key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`))
    .join('');
}
