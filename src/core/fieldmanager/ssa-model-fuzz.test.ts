// Server-Side Apply against a model, through the whole API: random applies (with and without
// force) by two appliers and merge patches by two updaters on one ConfigMap's data and labels.
// Before each step the test reads the object and its managedFields as the server has them; from
// that it predicts, with the rules of SSA as kube documents them, whether the step conflicts and
// what the object holds after it:
//   - an apply conflicts when it sets a field to a new value that another manager owns;
//     without force that is a 409 naming those fields, and nothing changes;
//   - a successful apply sets every field of its config, and it owns exactly its config's fields;
//     with force, the other managers lose the fields it took;
//   - a field the applier owned and left out of its new config is removed, unless another
//     manager owns it too (then it stays as it is);
//   - the same apply twice in a row is a no-op: same object, same resourceVersion;
//   - an update takes the fields it changes from every other manager;
//   - an object with no managedFields entries (its only applier left owning nothing) is not
//     tracked by updates, and the next apply first records every existing field under the
//     Update manager before-first-apply (kube's skipNonAppliedManager), so it can conflict;
//     an update that resets managedFields (`[]`) leaves the object untracked the same way.
// Seeded: FUZZ_SEED=<n> FUZZ_STEPS=<n> replays or widens a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_PATCH, startTestServer, type TestClient } from '../testing/api-server';
import { Rand } from '../testing/fuzz';

const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [1, 2, 3];
const STEPS = Number(process.env.FUZZ_STEPS ?? 300);
const APPLY = 'application/apply-patch+yaml';
const URL = '/api/v1/namespaces/default/configmaps/model';
const APPLIERS = ['applier-a', 'applier-b'];
const UPDATERS = ['updater-u', 'updater-v'];
const KEYS = ['k1', 'k2', 'k3', 'k4'];
const VALUES = ['x', 'y'];

type Fields = Record<string, string>;
interface State {
  data: Fields;
  labels: Fields;
  rv: string;
  /** `data.k1` / `labels.k1` → the managers (`name/Apply`, `name/Update`) whose fieldsV1 has it. */
  owners: Map<string, Set<string>>;
  /** How many managedFields entries the object has. */
  entries: number;
  exists: boolean;
}
interface Config {
  data: Fields;
  labels: Fields;
}

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

async function read(): Promise<State> {
  const r = await c.get(URL);
  if (r.status === 404) return { data: {}, labels: {}, rv: '', owners: new Map(), entries: 0, exists: false };
  const owners = new Map<string, Set<string>>();
  for (const e of r.json.metadata.managedFields ?? []) {
    const who = `${e.manager}/${e.operation}`;
    for (const [section, top] of [['data', e.fieldsV1['f:data']], ['labels', e.fieldsV1['f:metadata']?.['f:labels']]] as const) {
      for (const f of Object.keys(top ?? {})) {
        if (!f.startsWith('f:')) continue;
        const path = `${section}.${f.slice(2)}`;
        if (!owners.has(path)) owners.set(path, new Set());
        owners.get(path)!.add(who);
      }
    }
  }
  const entries = (r.json.metadata.managedFields ?? []).length;
  return { data: r.json.data ?? {}, labels: r.json.metadata.labels ?? {}, rv: r.json.metadata.resourceVersion, owners, entries, exists: true };
}

/** What an apply sees: with no entries, every existing field is before-first-apply's first. */
function withBeforeFirstApply(s: State): State {
  if (!s.exists || s.entries > 0) return s;
  const owners = new Map<string, Set<string>>();
  for (const section of ['data', 'labels'] as const) for (const k of Object.keys(s[section])) owners.set(`${section}.${k}`, new Set(['before-first-apply/Update']));
  return { ...s, owners };
}

function randomFields(r: Rand): Fields {
  const out: Fields = {};
  for (const k of KEYS) if (r.chance(0.45)) out[k] = r.pick(VALUES);
  return out;
}

function body(cfg: Config): unknown {
  const metadata: Record<string, unknown> = { name: 'model' };
  if (Object.keys(cfg.labels).length) metadata.labels = cfg.labels;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, ...(Object.keys(cfg.data).length ? { data: cfg.data } : {}) };
}

const paths = (cfg: Config) => [...Object.keys(cfg.data).map((k) => `data.${k}`), ...Object.keys(cfg.labels).map((k) => `labels.${k}`)];
const valueAt = (s: { data: Fields; labels: Fields }, path: string) => {
  const [section, key] = path.split('.') as ['data' | 'labels', string];
  return s[section][key];
};

/** What an apply of `cfg` by `who` must do to `before`: the conflicting paths, or the state after. */
function predictApply(before: State, who: string, cfg: Config, force: boolean): { conflicts: string[] } | { after: { data: Fields; labels: Fields }; owned: string[]; taken: string[] } {
  const self = `${who}/Apply`;
  const others = (path: string) => [...(before.owners.get(path) ?? [])].filter((m) => m !== self);
  const conflicts = paths(cfg).filter((p) => valueAt(before, p) !== undefined && valueAt(before, p) !== valueAt(cfg, p) && others(p).length > 0);
  if (conflicts.length && !force) return { conflicts };
  const after = { data: { ...before.data }, labels: { ...before.labels } };
  for (const p of paths(cfg)) {
    const [section, key] = p.split('.') as ['data' | 'labels', string];
    after[section][key] = valueAt(cfg, p)!;
  }
  // Fields this applier owned and no longer applies: removed when nobody else owns them.
  for (const [p, ms] of before.owners) {
    if (!ms.has(self) || paths(cfg).includes(p) || others(p).length > 0) continue;
    const [section, key] = p.split('.') as ['data' | 'labels', string];
    delete after[section][key];
  }
  return { after, owned: paths(cfg).sort(), taken: conflicts };
}

function ownedBy(s: State, who: string): string[] {
  return [...s.owners].filter(([, ms]) => ms.has(who)).map(([p]) => p).sort();
}

async function run(seed: number): Promise<string[]> {
  const r = new Rand(seed);
  const problems: string[] = [];
  await c.del(URL);
  let step = 0;
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(`seed ${seed} step ${step}: ${what}`);
  };
  for (; step < STEPS && problems.length === 0; step++) {
    const before = await read();
    if (!before.exists || r.chance(0.6)) {
      const who = r.pick(APPLIERS);
      const cfg = { data: randomFields(r), labels: r.chance(0.5) ? randomFields(r) : {} };
      const force = r.chance(0.3);
      const reply = await c.patch(`${URL}?fieldManager=${who}${force ? '&force=true' : ''}`, JSON.stringify(body(cfg)), APPLY);
      const expected = predictApply(withBeforeFirstApply(before), who, cfg, force);
      const what = `${who} applies ${JSON.stringify(cfg)}${force ? ' with force' : ''} to ${JSON.stringify({ data: before.data, labels: before.labels, owners: Object.fromEntries([...before.owners].map(([p, m]) => [p, [...m]])) })}`;
      if ('conflicts' in expected) {
        check(reply.status === 409, `expected 409 for ${expected.conflicts.join(', ')}, got ${reply.status} ${reply.text.slice(0, 300)}; ${what}`);
        for (const p of expected.conflicts) check(reply.text.includes(`.${p}`), `409 does not name .${p}: ${reply.json?.message}; ${what}`);
        const after = await read();
        check(after.rv === before.rv, `a refused apply changed the object; ${what}`);
        continue;
      }
      check(reply.status === 200 || reply.status === 201, `expected success, got ${reply.status} ${reply.text.slice(0, 300)}; ${what}`);
      const after = await read();
      check(JSON.stringify(after.data) === JSON.stringify(sorted(expected.after.data)), `data ${JSON.stringify(after.data)}, expected ${JSON.stringify(sorted(expected.after.data))}; ${what}`);
      check(JSON.stringify(after.labels) === JSON.stringify(sorted(expected.after.labels)), `labels ${JSON.stringify(after.labels)}, expected ${JSON.stringify(sorted(expected.after.labels))}; ${what}`);
      check(JSON.stringify(ownedBy(after, `${who}/Apply`)) === JSON.stringify(expected.owned), `${who} owns ${ownedBy(after, `${who}/Apply`)}, expected ${expected.owned}; ${what}`);
      for (const p of expected.taken) {
        const still = [...(after.owners.get(p) ?? [])].filter((m) => m !== `${who}/Apply`);
        check(still.length === 0, `after a forced apply ${still.join(', ')} still own ${p}; ${what}`);
      }
      // The same apply again changes nothing, not even the resourceVersion.
      if (r.chance(0.3)) {
        const again = await c.patch(`${URL}?fieldManager=${who}`, JSON.stringify(body(cfg)), APPLY);
        check(again.status === 200 && again.json.metadata.resourceVersion === after.rv, `re-apply was not a no-op: ${again.status} rv ${again.json?.metadata?.resourceVersion} vs ${after.rv}; ${what}`);
      }
    } else {
      const who = r.pick(UPDATERS);
      const change: { data: Record<string, string | null>; labels: Record<string, string | null> } = { data: {}, labels: {} };
      for (const section of ['data', 'labels'] as const) for (const k of KEYS) if (r.chance(0.3)) change[section][k] = r.chance(0.25) ? null : r.pick(VALUES);
      // Now and then the patch also resets managedFields (`[]`): nothing is tracked after it.
      const reset = r.chance(0.08);
      const metadata = reset ? { labels: change.labels, managedFields: [] } : { labels: change.labels };
      const reply = await c.patch(`${URL}?fieldManager=${who}`, { metadata, data: change.data }, MERGE_PATCH);
      const what = `${who} merge-patches ${JSON.stringify(change)}${reset ? ' with a managedFields reset' : ''} onto ${JSON.stringify({ data: before.data, labels: before.labels, entries: before.entries })}`;
      check(reply.status === 200, `expected 200, got ${reply.status} ${reply.text.slice(0, 300)}; ${what}`);
      const after = await read();
      for (const section of ['data', 'labels'] as const) {
        const expected: Fields = { ...before[section] };
        for (const [k, v] of Object.entries(change[section])) {
          if (v === null) delete expected[k];
          else expected[k] = v;
        }
        check(JSON.stringify(after[section]) === JSON.stringify(sorted(expected)), `${section} ${JSON.stringify(after[section])}, expected ${JSON.stringify(sorted(expected))}; ${what}`);
        // An untracked object stays untracked.
        if (reset || before.entries === 0) {
          check(after.entries === 0, `an update of an object without managedFields recorded ${after.entries} entries; ${what}`);
          continue;
        }
        // The fields it changed are its own and nobody else's.
        for (const [k, v] of Object.entries(change[section])) {
          if (v === null || before[section][k] === v) continue;
          const owners = [...(after.owners.get(`${section}.${k}`) ?? [])];
          check(owners.length === 1 && owners[0] === `${who}/Update`, `${section}.${k} changed by ${who} is owned by ${owners.join(', ')}; ${what}`);
        }
      }
    }
  }
  return problems;
}

function sorted(f: Fields): Fields {
  return Object.fromEntries(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe('Server-Side Apply against a model (ConfigMap data and labels)', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} random applies and updates`, async () => {
      expect((await run(seed)).slice(0, 5)).toEqual([]);
    });
  }
});
