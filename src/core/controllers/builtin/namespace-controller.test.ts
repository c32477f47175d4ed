// The namespace controller runs after the DELETE, as kube-controller-manager's does: the content
// of a Terminating namespace stays (and can be deleted by clients) until the grace period has
// passed; then it is deleted, the deletion conditions are written, and the `kubernetes`
// finalizer is removed through the finalize subresource.
import { afterEach, describe, expect, it } from 'vitest';
import { collectStream, configMap, eventually, startTestServer, statusOf, type TestClient } from '../../testing/api-server';
import { deletionConditions, type ContentPass } from './namespace-deleter';

let c: TestClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const NS = '/api/v1/namespaces';
const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('deleting a namespace', () => {
  it('keeps the content until the controller runs: later deletes of it succeed, creates are refused', async () => {
    c = await startTestServer({ namespaceDeletionGracePeriodMs: 300 });
    await c.post(NS, ns('app'));
    await c.post(`${NS}/app/configmaps`, configMap('one'));
    await c.post(`${NS}/app/configmaps`, configMap('two'));
    const del = await c.del(`${NS}/app`);
    expect(del.status).toBe(200);
    expect(del.json.status.phase).toBe('Terminating');
    // What `kubectl delete -f` does next for the objects listed after the Namespace.
    expect((await c.del(`${NS}/app/configmaps/one`)).status).toBe(200);
    expect((await c.get(`${NS}/app/configmaps/two`)).status).toBe(200);
    const late = await c.post(`${NS}/app/configmaps`, configMap('late'));
    expect(statusOf(late)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "late" is forbidden: unable to create new content in namespace app because it is being terminated',
      reason: 'Forbidden',
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace app is being terminated', field: 'metadata.namespace' }] },
      code: 403,
    });
    await c.api.namespacesSettled!();
    expect((await c.get(`${NS}/app/configmaps/two`)).status).toBe(404);
    expect((await c.get(`${NS}/app`)).status).toBe(404);
  });

  it('writes the v1.23 deletion conditions, then finalizes (watch: conditions, then gone)', async () => {
    c = await startTestServer();
    await c.post(NS, ns('cond'));
    await c.post(`${NS}/cond/configmaps`, configMap('plain'));
    const watch = collectStream((await c.get(`${NS}?watch=true&fieldSelector=metadata.name%3Dcond`)).raw);
    try {
      await c.del(`${NS}/cond`);
      await c.api.namespacesSettled!();
      await eventually(async () => (watch.events.some((e) => e.type === 'DELETED') ? true : undefined));
      const modified = watch.events.filter((e) => e.type === 'MODIFIED').map((e) => e.object);
      const withConditions = modified.find((o) => o.status.conditions);
      expect(withConditions.status.conditions.map(({ lastTransitionTime, ...rest }: any) => rest)).toEqual([
        { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
        { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
        { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
        { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
        { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
      ]);
      expect(withConditions.spec.finalizers).toEqual(['kubernetes']);
      expect(withConditions.metadata.managedFields.at(-1)).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update', subresource: 'status' });
      // The finalize write that empties spec.finalizers deletes the namespace (the registry's
      // ShouldDeleteDuringUpdate): the DELETED event carries the last stored state.
      expect(watch.events.at(-1).type).toBe('DELETED');
      expect(watch.events.at(-1).object.status.conditions).toHaveLength(5);
    } finally {
      watch.cancel();
    }
  });

  it('reports content held by finalizers, and finishes once they are removed', async () => {
    c = await startTestServer();
    await c.post(NS, ns('held'));
    await c.post(`${NS}/held/configmaps`, configMap('a', {}, { finalizers: ['example.com/hold'] }));
    await c.post(`${NS}/held/configmaps`, configMap('b', {}, { finalizers: ['example.com/hold', 'example.com/other'] }));
    await c.post(`${NS}/held/secrets`, { metadata: { name: 's', finalizers: ['example.com/hold'] } });
    await c.del(`${NS}/held`);
    await c.api.namespacesSettled!();
    const conditions = (await c.get(`${NS}/held`)).json.status.conditions;
    const byType = Object.fromEntries(conditions.map((x: any) => [x.type, x]));
    expect(byType.NamespaceContentRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 2 resource instances, secrets. has 1 resource instances',
    });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 3 resource instances, example.com/other in 1 resource instances',
    });
    expect(byType.NamespaceDeletionContentFailure).toMatchObject({ status: 'False', reason: 'ContentDeleted' });
    for (const path of ['configmaps/a', 'configmaps/b', 'secrets/s']) await c.patch(`${NS}/held/${path}`, { metadata: { finalizers: null } });
    await eventually(async () => ((await c!.get(`${NS}/held`)).status === 404 ? true : undefined), 8000);
  });
});

describe('deletionConditions (updateConditions)', () => {
  const empty = (): ContentPass => ({ remaining: new Map(), finalizers: new Map(), errors: [] });

  it('a failure sorts its messages; a condition keeps its transition time unless its status flips', () => {
    const failing = empty();
    failing.errors.push('b failed', 'a failed');
    const first = deletionConditions(undefined, failing, 't1')!;
    const content = first.find((x) => x.type === 'NamespaceDeletionContentFailure')!;
    expect(content).toEqual({ type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: 't1', reason: 'ContentDeletionFailed', message: 'Failed to delete all resource types, 2 remaining: a failed, b failed' });
    expect(deletionConditions(first, failing, 't2')).toBeUndefined();
    const healed = deletionConditions(first, empty(), 't3')!;
    expect(healed.find((x) => x.type === 'NamespaceDeletionContentFailure')).toMatchObject({ status: 'False', lastTransitionTime: 't3', reason: 'ContentDeleted' });
    expect(healed.find((x) => x.type === 'NamespaceContentRemaining')).toMatchObject({ status: 'False', lastTransitionTime: 't1' });
  });
});
