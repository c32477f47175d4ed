// @kubernetes/client-node (1.x: v2 needs Node 22 through undici 8) against the Node host: CRUD
// on ConfigMaps and Deployments and a label-selector list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';

type K8s = typeof import('@kubernetes/client-node');

let c: Cluster;
interface Clients {
  k8s: K8s;
  core: import('@kubernetes/client-node').CoreV1Api;
  apps: import('@kubernetes/client-node').AppsV1Api;
}
let loaded: Promise<Clients> | undefined;

async function loadClient(): Promise<K8s> {
  return import('@kubernetes/client-node');
}

/** Loaded on first use inside each test, so a load failure fails the tests instead of skipping them. */
function clients(): Promise<Clients> {
  loaded ??= loadClient().then((k8s) => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(c.kubeconfig);
    // client-node 1.x refuses plain http unless TLS verification is explicitly off.
    kc.clusters = kc.clusters.map((cl) => ({ ...cl, skipTLSVerify: true }));
    return { k8s, core: kc.makeApiClient(k8s.CoreV1Api), apps: kc.makeApiClient(k8s.AppsV1Api) };
  });
  return loaded;
}

beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** The HTTP status of a rejected call (client-node throws ApiException with `code`). */
async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe('@kubernetes/client-node', () => {
  it('creates, reads, replaces, patches and deletes a ConfigMap', async () => {
    const { k8s, core } = await clients();
    const namespace = 'default';
    const created = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'cn-cm', labels: { app: 'cn' } }, data: { a: '1' } } });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);

    const read = await core.readNamespacedConfigMap({ name: 'cn-cm', namespace });
    expect(read.data).toEqual({ a: '1' });

    read.data = { a: '2', b: '3' };
    const replaced = await core.replaceNamespacedConfigMap({ name: 'cn-cm', namespace, body: read });
    expect(replaced.data).toEqual({ a: '2', b: '3' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));

    const patched = await core.patchNamespacedConfigMap(
      { name: 'cn-cm', namespace, body: { data: { c: '4' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(patched.data).toEqual({ a: '2', b: '3', c: '4' });

    // A stale resourceVersion on update is a 409 Conflict.
    expect(await statusOf(core.replaceNamespacedConfigMap({ name: 'cn-cm', namespace, body: read }))).toBe(409);

    await core.deleteNamespacedConfigMap({ name: 'cn-cm', namespace });
    expect(await statusOf(core.readNamespacedConfigMap({ name: 'cn-cm', namespace }))).toBe(404);
  });

  it('lists ConfigMaps with a label selector', async () => {
    const { core } = await clients();
    const namespace = 'default';
    for (const [name, tier] of [['cn-l1', 'front'], ['cn-l2', 'back'], ['cn-l3', 'front']]) {
      await core.createNamespacedConfigMap({ namespace, body: { metadata: { name, labels: { suite: 'list', tier } } } });
    }
    const front = await core.listNamespacedConfigMap({ namespace, labelSelector: 'suite=list,tier=front' });
    expect(front.items.map((i) => i.metadata?.name)).toEqual(['cn-l1', 'cn-l3']);
    expect(front.metadata?.resourceVersion).toMatch(/^\d+$/);
    const notFront = await core.listNamespacedConfigMap({ namespace, labelSelector: 'suite=list,tier notin (front)' });
    expect(notFront.items.map((i) => i.metadata?.name)).toEqual(['cn-l2']);
  });

  it('creates, reads, updates, scales and deletes a Deployment', async () => {
    const { k8s, apps } = await clients();
    const namespace = 'default';
    const body = {
      metadata: { name: 'cn-web', labels: { app: 'cn-web' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'cn-web' } },
        template: { metadata: { labels: { app: 'cn-web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      },
    };
    const created = await apps.createNamespacedDeployment({ namespace, body });
    expect(created.metadata?.generation).toBe(1);
    // Defaults the API server fills in.
    expect(created.spec?.strategy?.type).toBe('RollingUpdate');
    expect(created.spec?.template.spec?.containers[0].imagePullPolicy).toBe('IfNotPresent');

    // The deployment controller writes the status meanwhile: read-modify-replace until no
    // Conflict, as client-go's retry.RetryOnConflict does.
    let updated: Awaited<ReturnType<typeof apps.replaceNamespacedDeployment>> | undefined;
    for (let attempt = 0; !updated; attempt++) {
      const read = await apps.readNamespacedDeployment({ name: 'cn-web', namespace });
      read.spec!.template.spec!.containers[0].image = 'nginx:1.26';
      updated = await apps.replaceNamespacedDeployment({ name: 'cn-web', namespace, body: read }).catch((error: unknown) => {
        if (attempt < 4 && String((error as { code?: number }).code ?? error).includes('409')) return undefined;
        throw error;
      });
    }
    expect(updated.spec?.template.spec?.containers[0].image).toBe('nginx:1.26');
    expect(updated.metadata?.generation).toBe(2);

    const scale = await apps.patchNamespacedDeploymentScale(
      { name: 'cn-web', namespace, body: { spec: { replicas: 4 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(scale.spec?.replicas).toBe(4);
    expect((await apps.readNamespacedDeployment({ name: 'cn-web', namespace })).spec?.replicas).toBe(4);

    const list = await apps.listNamespacedDeployment({ namespace, labelSelector: 'app=cn-web' });
    expect(list.items.map((d) => d.metadata?.name)).toEqual(['cn-web']);

    await apps.deleteNamespacedDeployment({ name: 'cn-web', namespace });
    expect(await statusOf(apps.readNamespacedDeployment({ name: 'cn-web', namespace }))).toBe(404);
  });
});
