// Two Node hosts on one 3-member etcd cluster (Debian's etcd-server, started here): writes
// through one, a watch and a paged list through the other, with one etcd member killed and
// restarted meanwhile. The watch sees every write in order with the resourceVersions the writes
// answered; the list pages are one snapshot; kubectl through either host agrees.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcdCluster, type EtcdMember } from '../src/backends/etcd/testing-etcd';
import { readWatch, request, startHost, type HostProcess } from './durable-host';

const CM = '/api/v1/namespaces/default/configmaps';

describe('two Node hosts on one etcd cluster', () => {
  let cluster: Awaited<ReturnType<typeof startEtcdCluster>> | undefined;
  let dir = '';
  const hosts: HostProcess[] = [];

  beforeAll(async () => {
    cluster = await startEtcdCluster(3);
    dir = await mkdtemp(join(tmpdir(), 'kp-etcd-hosts-'));
    const flags = ['--etcd-servers', cluster.servers.join(','), '--etcd-prefix', '/kp'];
    // One after the other: the second finds the bootstrap objects the first made.
    hosts.push(await startHost(join(dir, 'a'), flags));
    hosts.push(await startHost(join(dir, 'b'), flags));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports etcd in readyz and livez', async () => {
    for (const host of hosts) {
      for (const endpoint of ['readyz', 'livez']) {
        const res = await fetch(`${host.url}/${endpoint}?verbose`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('[+]etcd ok');
      }
    }
  });

  it('exposes kube 1.23 storage metrics: etcd request latencies per operation and type, object counts, db size per endpoint', async () => {
    const [a] = hosts as [HostProcess];
    expect((await request(`${a.url}${CM}`, 'POST', { metadata: { name: 'metrics-probe' } })).status).toBe(201);
    expect((await request(`${a.url}${CM}/metrics-probe`, 'GET')).status).toBe(200);
    const text = await fetch(`${a.url}/metrics`).then((r) => r.text());
    expect(text).toMatch(/^etcd_request_duration_seconds_count\{operation="create",type="\*core\.ConfigMap"\} [1-9]/m);
    expect(text).toMatch(/^etcd_request_duration_seconds_bucket\{operation="get",type="\*core\.ConfigMap",le="0\.005"\} \d+$/m);
    expect(text).toMatch(/^apiserver_storage_objects\{resource="configmaps"\} [1-9]/m);
    // Polled from each member's status (kube: every 30 s, the first at start).
    for (const server of cluster!.servers) {
      expect(text).toMatch(new RegExp(`^etcd_db_total_size_in_bytes\\{endpoint="${server.replace(/\./g, '\\.')}"\\} [1-9]\\d*$`, 'm'));
    }
  });

  it('a watch and a paged list through one host see the writes through the other, with equal resourceVersions', async () => {
    const [a, b] = hosts as [HostProcess, HostProcess];
    const start = await request(`${b.url}${CM}`, 'GET');
    const fromRv = start.body.metadata.resourceVersion as string;
    const written: Array<{ type: string; name: string; rv: string }> = [];
    const watching = readWatch(`${b.url}${CM}?watch=1&resourceVersion=${fromRv}`, (ev) => ev.object.metadata?.name === 'last');
    for (let i = 0; i < 12; i++) {
      // A member goes down and comes back in the middle of the writes.
      if (i === 4) await cluster!.members[1]!.kill();
      if (i === 8) await cluster!.members[1]!.start();
      const created = await request(`${a.url}${CM}`, 'POST', { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
      expect(created.status).toBe(201);
      written.push({ type: 'ADDED', name: `cm-${i}`, rv: created.body.metadata.resourceVersion });
      if (i % 3 === 0) {
        const updated = await request(`${a.url}${CM}/cm-${i}`, 'PUT', { ...created.body, data: { i: `${i}!` } });
        expect(updated.status).toBe(200);
        written.push({ type: 'MODIFIED', name: `cm-${i}`, rv: updated.body.metadata.resourceVersion });
      }
    }
    const last = await request(`${a.url}${CM}`, 'POST', { metadata: { name: 'last' } });
    written.push({ type: 'ADDED', name: 'last', rv: last.body.metadata.resourceVersion });
    const watched = await watching;
    expect(watched.status).toBe(200);
    expect(watched.events.map((ev) => ({ type: ev.type, name: ev.object.metadata.name, rv: ev.object.metadata.resourceVersion }))).toEqual(written);

    // Paged through b: one snapshot across pages, even with a write between them.
    const page1 = await request(`${b.url}${CM}?limit=5`, 'GET');
    expect(page1.body.items).toHaveLength(5);
    expect(page1.body.metadata.remainingItemCount).toBeGreaterThan(0);
    await request(`${a.url}${CM}`, 'POST', { metadata: { name: 'aaa-between-pages' } });
    const names = (page1.body.items as Array<{ metadata: { name: string } }>).map((item) => item.metadata.name);
    let token = page1.body.metadata.continue as string;
    while (token) {
      const page = await request(`${b.url}${CM}?limit=5&continue=${encodeURIComponent(token)}`, 'GET');
      expect(page.status).toBe(200);
      names.push(...(page.body.items as Array<{ metadata: { name: string } }>).map((item) => item.metadata.name));
      token = page.body.metadata.continue;
    }
    expect(names).not.toContain('aaa-between-pages');
    expect(names).toEqual(expect.arrayContaining(written.map((w) => w.name)));
    // The same object through both hosts: identical bytes.
    const viaA = await fetch(`${a.url}${CM}/cm-3`).then((r) => r.text());
    const viaB = await fetch(`${b.url}${CM}/cm-3`).then((r) => r.text());
    expect(viaB).toBe(viaA);
  }, 90_000);

  it('runs the controllers in one host: one Lease holder, one token Secret per ServiceAccount', async () => {
    const [a, b] = hosts as [HostProcess, HostProcess];
    const lease = await request(`${a.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager`, 'GET');
    expect(lease.status).toBe(200);
    expect(lease.body.spec.holderIdentity).toMatch(/_[0-9a-f-]{36}$/);
    expect((await request(`${b.url}/api/v1/namespaces/default/serviceaccounts`, 'POST', { metadata: { name: 'robot' } })).status).toBe(201);
    let tokens: string[] = [];
    for (let i = 0; i < 40 && tokens.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const secrets = await request(`${a.url}/api/v1/namespaces/default/secrets`, 'GET');
      tokens = (secrets.body.items as Array<{ metadata: { name: string } }>).map((s) => s.metadata.name).filter((n) => n.startsWith('robot-token-'));
    }
    // Give a second controller time to add its own, were one running.
    await new Promise((r) => setTimeout(r, 500));
    const secrets = await request(`${b.url}/api/v1/namespaces/default/secrets`, 'GET');
    expect((secrets.body.items as Array<{ metadata: { name: string } }>).filter((s) => s.metadata.name.startsWith('robot-token-'))).toHaveLength(1);
  });

  it('runs the simulated cluster in the Lease holder only (one set of pods), and serves metrics.k8s.io in every host', async () => {
    const [a, b] = hosts as [HostProcess, HostProcess];
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'once' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'once' } }, template: { metadata: { labels: { app: 'once' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    // Every pod event for 4 s: two ReplicaSet controllers would each create pods, then delete extras.
    const watching = readWatch(`${a.url}/api/v1/namespaces/default/pods?watch=1&labelSelector=app%3Donce`, () => false, 4_000);
    await new Promise((r) => setTimeout(r, 200));
    expect((await request(`${b.url}/apis/apps/v1/namespaces/default/replicasets`, 'POST', rs)).status).toBe(201);
    const { events } = await watching;
    expect(events.filter((e) => e.type === 'ADDED')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'DELETED')).toHaveLength(0);
    for (const host of hosts) {
      const nodes = await request(`${host.url}/apis/metrics.k8s.io/v1beta1/nodes`, 'GET');
      expect(nodes.status).toBe(200);
      expect(nodes.body.items.length).toBeGreaterThan(0);
    }
  });

  it('answers 500 InternalError and fails readyz while etcd has no quorum, and recovers without a restart', async () => {
    const [a, b] = hosts as [HostProcess, HostProcess];
    const [m1, m2] = cluster!.members.slice(1) as [EtcdMember, EtcdMember];
    await Promise.all([m1.kill(), m2.kill()]);
    const failed = await request(`${a.url}${CM}`, 'POST', { metadata: { name: 'during-outage' } });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
    const ready = await fetch(`${a.url}/readyz?verbose`);
    expect(ready.status).toBe(500);
    expect(await ready.text()).toContain('[-]etcd failed: reason withheld');
    const live = await fetch(`${a.url}/livez?verbose`);
    expect(live.status).toBe(500);
    const liveText = await live.text();
    expect(liveText).toContain('[-]etcd failed: reason withheld\n');
    expect(liveText.endsWith('livez check failed\n')).toBe(true);

    await Promise.all([m1.start(), m2.start()]);
    // Through the other host, started while the members come back: it must see the next write.
    const watching = readWatch(`${b.url}${CM}?watch=1`, (ev) => ev.object.metadata?.name === 'after-outage');
    let created: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 0; i < 60 && created?.status !== 201; i++) {
      created = await request(`${a.url}${CM}`, 'POST', { metadata: { name: 'after-outage' } });
      if (created.status !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(created?.status).toBe(201);
    const watched = await watching;
    expect(watched.events.at(-1)?.object.metadata.resourceVersion).toBe(created!.body.metadata.resourceVersion);
    expect((await fetch(`${a.url}/readyz`)).status).toBe(200);
    const liveAgain = await fetch(`${a.url}/livez?verbose`);
    expect(liveAgain.status).toBe(200);
    expect(await liveAgain.text()).toContain('[+]etcd ok');
  }, 90_000);
});
