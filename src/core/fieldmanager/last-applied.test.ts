// Client-side → server-side apply for the manager `kubectl` (kube-apiserver v1.23's
// lastAppliedManager and lastAppliedUpdater): which conflicts the last-applied annotation
// explains, who is forgotten, and how the annotation is rewritten.
import { describe, expect, it } from 'vitest';
import { applyPatch, conflictMessages, type ManagedFieldsEntry, updateManagedFields } from './index';
import { ownedPaths } from './inspect';
import { LAST_APPLIED_ANNOTATION } from './last-applied';

const schema = { definition: 'io.k8s.api.apps.v1.Deployment' };
const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T11:00:00Z';
const CSA = 'kubectl-client-side-apply';

type Obj = Record<string, any>;

function deployment(o: { labels?: Obj; replicas?: number; selector?: string; template?: string; images?: string[]; annotations?: Obj; extraMeta?: Obj }): Obj {
  const metadata: Obj = { name: 'web', ...(o.labels ? { labels: o.labels } : {}), ...(o.annotations ? { annotations: o.annotations } : {}), ...o.extraMeta };
  const spec: Obj = {};
  if (o.replicas !== undefined) spec.replicas = o.replicas;
  if (o.selector) spec.selector = { matchLabels: { app: o.selector } };
  spec.template = {
    metadata: { labels: { app: o.template ?? o.selector ?? 'web' } },
    spec: { containers: (o.images ?? ['img:1']).map((image, i) => ({ name: i === 0 ? 'c' : `c${i}`, image })) },
  };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec };
}

/** A Deployment as `kubectl apply` (client-side) leaves it: the annotation, and CSA owning everything. */
function clientSideApplied(live: Obj, lastApplied: Obj | string): { live: Obj; managed: ManagedFieldsEntry[] } {
  const text = typeof lastApplied === 'string' ? lastApplied : JSON.stringify(lastApplied);
  const obj = { ...live, metadata: { ...live.metadata, annotations: { ...live.metadata.annotations, [LAST_APPLIED_ANNOTATION]: text } } };
  const managed = updateManagedFields({ next: obj, managed: [], manager: CSA, apiVersion: 'apps/v1', time: T0, schema });
  return { live: { ...obj, metadata: { ...obj.metadata, managedFields: managed } }, managed };
}

function applyAs(manager: string, start: { live: Obj; managed: ManagedFieldsEntry[] }, applied: Obj, force = false) {
  return applyPatch({ live: start.live, applied, managed: start.managed, manager, apiVersion: 'apps/v1', force, time: T1, schema });
}

const conflictFields = (r: ReturnType<typeof applyAs>) => ('conflicts' in r ? r.conflicts.map((c) => `${c.manager} ${c.field}`).sort() : r);

describe('kubectl server-side apply over client-side apply', () => {
  // The annotation differs from the live object on three fields (a label it lacks, replicas, an
  // image) and has a container the live object lost.
  const lastApplied = deployment({ replicas: 3, selector: 'web', images: ['img:1', 'img2:1'] });
  const live = deployment({ labels: { app: 'web' }, replicas: 100, selector: 'web', images: ['img:2'] });
  const changed = deployment({ labels: { app: 'new' }, replicas: 333, selector: 'new', images: ['img:new'] });

  it('only conflicts on fields where the live object no longer matches the annotation are reported, for kubectl', () => {
    const r = applyAs('kubectl', clientSideApplied(live, lastApplied), changed);
    expect(conflictFields(r)).toEqual([
      `${CSA} .metadata.labels.app`,
      `${CSA} .spec.replicas`,
      `${CSA} .spec.template.spec.containers[name="c"].image`,
    ]);
    expect(conflictMessages((r as { conflicts: any }).conflicts).message).toBe(
      `Apply failed with 3 conflicts: conflicts with "${CSA}" using apps/v1:\n- .metadata.labels.app\n- .spec.replicas\n- .spec.template.spec.containers[name="c"].image`,
    );
  });

  it('any other manager name gets every conflict (the selector is atomic)', () => {
    const r = applyAs('kubectl-ssa', clientSideApplied(live, lastApplied), changed);
    expect(conflictFields(r)).toEqual([
      `${CSA} .metadata.labels.app`,
      `${CSA} .spec.replicas`,
      `${CSA} .spec.selector`,
      `${CSA} .spec.template.metadata.labels.app`,
      `${CSA} .spec.template.spec.containers[name="c"].image`,
    ]);
  });

  it('conflicts all explained by the annotation are forced: the client-side applier is forgotten, the rest goes to before-first-apply, the annotation follows', () => {
    const same = deployment({ labels: { app: 'web' }, replicas: 3, selector: 'web' });
    const applied = deployment({ labels: { app: 'web' }, replicas: 5, selector: 'web', images: ['img:9'] });
    const r = applyAs('kubectl', clientSideApplied(same, same), applied);
    if (!('object' in r)) throw new Error(JSON.stringify(r.conflicts));
    const o = r.object as Obj;
    expect(o.spec.replicas).toBe(5);
    expect(o.metadata.annotations[LAST_APPLIED_ANNOTATION]).toBe(`${JSON.stringify(sortKeys(applied))}\n`);
    const owned = ownedPaths(r.managed);
    expect(Object.keys(owned).sort()).toEqual(['before-first-apply:Update', 'kubectl:Apply']);
    // The forced second pass started from nobody (the client-side applier was dropped), so the
    // live fields were first handed to before-first-apply; kubectl took what it applies.
    expect(owned['before-first-apply:Update']).toContain(`.metadata.annotations.${LAST_APPLIED_ANNOTATION}`);
    expect(owned['before-first-apply:Update']).not.toContain('.spec.replicas');
    expect(owned['kubectl:Apply']).toContain('.spec.replicas');
  });

  it('without conflicts, managers owning the annotation are dropped and the annotation is rewritten', () => {
    const same = deployment({ labels: { app: 'web' }, replicas: 3, selector: 'web' });
    const applied = deployment({ labels: { app: 'web' }, replicas: 3, selector: 'web', annotations: { note: '<a&b>' } });
    const r = applyAs('kubectl', clientSideApplied(same, same), applied);
    if (!('object' in r)) throw new Error(JSON.stringify(r.conflicts));
    expect(r.managed.map((e) => e.manager)).toEqual(['kubectl']);
    const text = (r.object as Obj).metadata.annotations[LAST_APPLIED_ANNOTATION];
    // Go's encoder: sorted keys, HTML-safe escapes, a final newline.
    expect(text).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"note":"\\u003ca\\u0026b\\u003e"},"labels":{"app":"web"},"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"img:1","name":"c"}]}}}}\n',
    );
    expect((r.object as Obj).metadata.annotations.note).toBe('<a&b>');
  });

  it('the rewritten annotation escapes control characters as Go does', () => {
    const same = deployment({ selector: 'web' });
    const applied = deployment({ selector: 'web', annotations: { note: 'a\bb\fc\\b\n\u0001\u2028' } });
    const r = applyAs('kubectl', clientSideApplied(same, same), applied);
    if (!('object' in r)) throw new Error(JSON.stringify(r.conflicts));
    expect((r.object as Obj).metadata.annotations[LAST_APPLIED_ANNOTATION]).toContain('"note":"a\\u0008b\\u000cc\\\\b\\n\\u0001\\u2028"');
  });

  it('an annotation in the applied configuration is left out of the rewritten one (an empty map stays); kubectl owning it is dropped too', () => {
    const same = deployment({ selector: 'web' });
    const applied = deployment({ selector: 'web', annotations: { [LAST_APPLIED_ANNOTATION]: 'mine' } });
    // The annotation is not in itself, so changing it is a conflict the annotation does not explain.
    expect(conflictFields(applyAs('kubectl', clientSideApplied(same, same), applied))).toEqual([`${CSA} .metadata.annotations.${LAST_APPLIED_ANNOTATION}`]);
    const r = applyAs('kubectl', clientSideApplied(same, same), applied, true);
    if (!('object' in r)) throw new Error(JSON.stringify(r.conflicts));
    expect(JSON.parse((r.object as Obj).metadata.annotations[LAST_APPLIED_ANNOTATION]).metadata).toEqual({ annotations: {}, name: 'web' });
    // kube spares kubectl's entry by comparing its identifier (JSON) with "kubectl": it never
    // matches, so the applier, now owning the annotation, is forgotten; the client-side applier
    // lost the annotation to it and stays.
    expect(r.managed.map((e) => e.manager)).toEqual([CSA]);
  });

  it('no annotation: nothing is forced, and none is added', () => {
    const plain = deployment({ replicas: 3, selector: 'web' });
    const managed = updateManagedFields({ next: plain, managed: [], manager: CSA, apiVersion: 'apps/v1', time: T0, schema });
    const start = { live: { ...plain, metadata: { ...plain.metadata, managedFields: managed } }, managed };
    expect(conflictFields(applyAs('kubectl', start, deployment({ replicas: 4, selector: 'web' })))).toEqual([`${CSA} .spec.replicas`]);
    const ok = applyAs('kubectl', start, deployment({ replicas: 3, selector: 'web' }));
    if (!('object' in ok)) throw new Error('conflicts');
    expect((ok.object as Obj).metadata.annotations).toBeUndefined();
  });

  it.each([
    ['another apiVersion', JSON.stringify({ ...deployment({ replicas: 3, selector: 'web' }), apiVersion: 'extensions/v1beta1' })],
    ['no kind', JSON.stringify({ apiVersion: 'apps/v1', spec: { replicas: 3 } })],
    ['not JSON', 'apiVersion: apps/v1'],
    ['a field the schema lacks', JSON.stringify({ ...deployment({ replicas: 3, selector: 'web' }), bogus: 1 })],
  ])('an annotation with %s explains nothing', (_what, text) => {
    const start = clientSideApplied(deployment({ replicas: 3, selector: 'web' }), text);
    expect(conflictFields(applyAs('kubectl', start, deployment({ replicas: 100, selector: 'web' })))).toEqual([`${CSA} .spec.replicas`]);
  });

  it('a rewritten annotation that would take the annotations over 256 KiB is dropped', () => {
    const big = 'x'.repeat(140 * 1024);
    const same = deployment({ selector: 'web', annotations: { big } });
    const r = applyAs('kubectl', clientSideApplied(same, deployment({ selector: 'web' })), deployment({ selector: 'web', annotations: { big } }));
    if (!('object' in r)) throw new Error(JSON.stringify(r.conflicts));
    expect(Object.keys((r.object as Obj).metadata.annotations)).toEqual(['big']);
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Obj)[k])]));
  return v;
}
