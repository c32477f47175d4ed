// API Priority and Fairness as a v1.23 kube-apiserver shows it: the bootstrap FlowSchemas and
// PriorityLevelConfigurations, their upkeep (mandatory specs put back, suggested ones only while
// marked for auto-update), the Dangling status, the Table columns and the X-Kubernetes-PF-*
// headers of each request's classification.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_V1, startTestServer, type TestClient } from '../testing/api-server';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1beta2';
const FS_HEADER = 'X-Kubernetes-Pf-Flowschema-Uid';
const PL_HEADER = 'X-Kubernetes-Pf-Prioritylevel-Uid';
const AUTO = 'apf.kubernetes.io/autoupdate-spec';

/** Polls until `check` returns something truthy (the background controller is asynchronous). */
async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function uids(c: TestClient, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const kind of ['flowschemas', 'prioritylevelconfigurations']) {
    for (const i of (await c.get(`${FC}/${kind}`, headers)).json.items) out[`${kind === 'flowschemas' ? 'fs' : 'pl'}/${i.metadata.name}`] = i.metadata.uid;
  }
  return out;
}

const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((i) => i.metadata.name);

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('bootstrap configuration', () => {
  it('has the 1.23 mandatory and suggested objects, marked for auto-update, served at both versions', async () => {
    const fs = (await c.get(`${FC}/flowschemas`)).json;
    expect(names(fs)).toEqual([
      'catch-all',
      'exempt',
      'global-default',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'probes',
      'service-accounts',
      'system-leader-election',
      'system-node-high',
      'system-nodes',
      'workload-leader-election',
    ]);
    const pl = (await c.get(`${FC}/prioritylevelconfigurations`)).json;
    expect(names(pl)).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    for (const i of [...fs.items, ...pl.items]) expect(i.metadata.annotations).toEqual({ [AUTO]: 'true' });
    expect(names((await c.get('/apis/flowcontrol.apiserver.k8s.io/v1beta1/flowschemas')).json)).toEqual(names(fs));
  });

  it('writes the specs kube-apiserver does, as its config producer', async () => {
    const pl = (await c.get(`${FC}/prioritylevelconfigurations/catch-all`)).json;
    expect(pl.spec).toEqual({ type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } });
    expect(pl.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual(['api-priority-and-fairness-config-producer-v1']);
    expect((await c.get(`${FC}/prioritylevelconfigurations/leader-election`)).json.spec.limited).toEqual({
      assuredConcurrencyShares: 10,
      limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } },
    });
    expect((await c.get(`${FC}/flowschemas/probes`)).json.spec).toEqual({
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 2,
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:unauthenticated' } },
            { kind: 'Group', group: { name: 'system:authenticated' } },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
        },
      ],
    });
    const sle = (await c.get(`${FC}/flowschemas/system-leader-election`)).json.spec;
    expect(sle.distinguisherMethod).toEqual({ type: 'ByUser' });
    expect(sle.rules[0].subjects).toEqual([
      { kind: 'User', user: { name: 'system:kube-controller-manager' } },
      { kind: 'User', user: { name: 'system:kube-scheduler' } },
      { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } },
    ]);
    expect(sle.rules[0].resourceRules).toEqual([
      { verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints', 'configmaps'], namespaces: ['kube-system'] },
      { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
    ]);
  });

  it('every FlowSchema carries the Dangling condition of the config controller', async () => {
    const fs = (await c.get(`${FC}/flowschemas/workload-leader-election`)).json;
    expect(fs.status.conditions).toEqual([
      {
        type: 'Dangling',
        status: 'False',
        lastTransitionTime: expect.any(String),
        reason: 'Found',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "leader-election" and it exists',
      },
    ]);
    const status = fs.metadata.managedFields.find((m: { manager: string }) => m.manager === 'api-priority-and-fairness-config-consumer-v1');
    expect(status).toMatchObject({ operation: 'Update', apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', subresource: 'status' });
  });
});

describe('tables', () => {
  it('print FlowSchemas in matching order and priority levels with their queuing', async () => {
    const fs = (await c.get(`${FC}/flowschemas`, { accept: TABLE_V1 })).json;
    expect(fs.columnDefinitions.map((d: { name: string; type: string }) => `${d.name}:${d.type}`)).toEqual(['Name:string', 'PriorityLevel:string', 'MatchingPrecedence:string', 'DistinguisherMethod:string', 'Age:string', 'MissingPL:string']);
    const rows = fs.rows.map((r: { cells: unknown[] }) => r.cells);
    expect(rows.map((r: unknown[]) => r[0])).toEqual(['exempt', 'probes', 'system-leader-election', 'workload-leader-election', 'system-node-high', 'system-nodes', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'service-accounts', 'global-default', 'catch-all']);
    expect(rows[0]).toEqual(['exempt', 'exempt', 1, '<none>', expect.any(String), 'False']);
    expect(rows[6]).toEqual(['kube-controller-manager', 'workload-high', 800, 'ByNamespace', expect.any(String), 'False']);
    const pl = (await c.get(`${FC}/prioritylevelconfigurations`, { accept: TABLE_V1 })).json;
    expect(pl.columnDefinitions.map((d: { name: string }) => d.name)).toEqual(['Name', 'Type', 'AssuredConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
    const byName = Object.fromEntries(pl.rows.map((r: { cells: unknown[] }) => [r.cells[0], r.cells.slice(1, 6)]));
    expect(byName['exempt']).toEqual(['Exempt', '<none>', '<none>', '<none>', '<none>']);
    expect(byName['catch-all']).toEqual(['Limited', 5, '<none>', '<none>', '<none>']);
    expect(byName['workload-high']).toEqual(['Limited', 40, 128, 6, 50]);
  });
});

describe('classification headers', () => {
  it('the default admin (system:masters) is exempt on every request APF handles, watches included', async () => {
    const u = await uids(c);
    for (const url of ['/api/v1/namespaces/default/pods', '/version', '/healthz', '/apis', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1', '/api/v1/nope']) {
      const r = await c.get(url);
      expect([url, r.headers[FS_HEADER], r.headers[PL_HEADER]]).toEqual([url, u['fs/exempt'], u['pl/exempt']]);
    }
  });

  it('long-running requests other than watch bypass APF: no headers', async () => {
    await c.post('/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    for (const url of ['/api/v1/namespaces/default/pods/p/log', '/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true']) {
      const r = await c.request(url.includes('exec') ? 'POST' : 'GET', url);
      expect([url, r.headers[FS_HEADER]]).toEqual([url, undefined]);
    }
  });

  it('follow the configuration as soon as it is written', async () => {
    const alice = await startTestServer({ authentication: { tokens: [{ token: 'a', user: 'alice', uid: '1', groups: [] }, { token: 'root', user: 'root', uid: '2', groups: ['system:masters'] }] } });
    try {
      const u = await uids(alice, { authorization: 'Bearer root' });
      const asAlice = { authorization: 'Bearer a' };
      let r = await alice.get('/api/v1/namespaces/default/configmaps', asAlice);
      expect([r.headers[FS_HEADER], r.headers[PL_HEADER]]).toEqual([u['fs/global-default'], u['pl/global-default']]);
      expect((await alice.get('/readyz', asAlice)).headers[FS_HEADER]).toBe(u['fs/probes']);
      // No credentials: refused by authentication, before APF.
      expect((await alice.get('/api/v1/namespaces')).headers[FS_HEADER]).toBeUndefined();
      const mine = {
        metadata: { name: 'alice-configmaps' },
        spec: {
          priorityLevelConfiguration: { name: 'workload-low' },
          matchingPrecedence: 500,
          rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'], namespaces: ['default'] }] }],
        },
      };
      const created = (await alice.post(`${FC}/flowschemas`, mine, { authorization: 'Bearer root' })).json;
      r = await alice.get('/api/v1/namespaces/default/configmaps', asAlice);
      expect([r.headers[FS_HEADER], r.headers[PL_HEADER]]).toEqual([created.metadata.uid, u['pl/workload-low']]);
      expect((await alice.get('/api/v1/namespaces/kube-system/configmaps', asAlice)).headers[FS_HEADER]).toBe(u['fs/global-default']);
    } finally {
      await alice.close();
    }
  });

  it('a request refused by RBAC was classified first', async () => {
    const s = await startTestServer({ authorization: 'RBAC', authentication: { tokens: [{ token: 'a', user: 'alice', uid: '1', groups: [] }] } });
    try {
      const r = await s.get('/api/v1/namespaces/default/secrets', { authorization: 'Bearer a' });
      expect(r.status).toBe(403);
      expect(r.headers[FS_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await s.close();
    }
  });
});

describe('upkeep', () => {
  it('a FlowSchema naming a missing priority level is Dangling until the level exists', async () => {
    const fs = { metadata: { name: 'orphan' }, spec: { priorityLevelConfiguration: { name: 'later' }, matchingPrecedence: 5000, rules: [] } };
    expect((await c.post(`${FC}/flowschemas`, fs)).status).toBe(201);
    const dangling = await until(async () => (await c.get(`${FC}/flowschemas/orphan`)).json.status?.conditions?.[0], 'Dangling');
    expect(dangling).toMatchObject({ type: 'Dangling', status: 'True', reason: 'NotFound', message: 'This FlowSchema references the PriorityLevelConfiguration object named "later" but there is no such object' });
    const row = (await c.get(`${FC}/flowschemas/orphan`, { accept: TABLE_V1 })).json.rows[0].cells;
    expect(row[5]).toBe('True');
    await c.post(`${FC}/prioritylevelconfigurations`, { metadata: { name: 'later' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } });
    await until(async () => (await c.get(`${FC}/flowschemas/orphan`)).json.status.conditions[0].status === 'False', 'Found');
    expect((await c.get(`${FC}/flowschemas/orphan`)).json.status.conditions).toHaveLength(1);
  });

  it('a mandatory spec cannot change (validation), and its annotation is put back whatever it says', async () => {
    const spec = await c.patch(`${FC}/prioritylevelconfigurations/catch-all`, { spec: { limited: { assuredConcurrencyShares: 7 } } });
    expect(spec.status).toBe(422);
    expect(spec.json.message).toContain("spec of 'catch-all' must equal the fixed value");
    await c.patch(`${FC}/prioritylevelconfigurations/catch-all`, { metadata: { annotations: { [AUTO]: 'false' } } });
    const pl = await until(async () => {
      const cur = (await c.get(`${FC}/prioritylevelconfigurations/catch-all`)).json;
      return cur.spec.limited.assuredConcurrencyShares === 5 && cur.metadata.annotations[AUTO] === 'true' && cur;
    }, 'catch-all restored');
    expect(pl.metadata.generation).toBe(1);
    await c.del(`${FC}/flowschemas/exempt`);
    await until(async () => (await c.get(`${FC}/flowschemas/exempt`)).status === 200, 'exempt recreated');
  });

  it('updates a suggested object only while it is marked for auto-update', async () => {
    await c.patch(`${FC}/prioritylevelconfigurations/workload-low`, { spec: { limited: { assuredConcurrencyShares: 1 } } });
    await until(async () => (await c.get(`${FC}/prioritylevelconfigurations/workload-low`)).json.spec.limited.assuredConcurrencyShares === 100, 'workload-low restored');
    await c.patch(`${FC}/prioritylevelconfigurations/global-default`, { metadata: { annotations: { [AUTO]: 'false' } }, spec: { limited: { assuredConcurrencyShares: 33 } } });
    // A deleted suggested object comes back; once it has, the pass has seen global-default too.
    await c.del(`${FC}/flowschemas/kube-scheduler`);
    await until(async () => (await c.get(`${FC}/flowschemas/kube-scheduler`)).status === 200, 'kube-scheduler recreated');
    const gd = (await c.get(`${FC}/prioritylevelconfigurations/global-default`)).json;
    expect([gd.spec.limited.assuredConcurrencyShares, gd.metadata.annotations[AUTO]]).toEqual([33, 'false']);
  });

  it('deletes objects marked for auto-update that the bootstrap set does not have', async () => {
    const extra = (name: string, auto: string) => ({ metadata: { name, annotations: { [AUTO]: auto } }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } });
    await c.post(`${FC}/prioritylevelconfigurations`, extra('kept', 'false'));
    await c.post(`${FC}/prioritylevelconfigurations`, extra('retired', 'true'));
    await until(async () => (await c.get(`${FC}/prioritylevelconfigurations/retired`)).status === 404, 'retired removed');
    expect((await c.get(`${FC}/prioritylevelconfigurations/kept`)).status).toBe(200);
  });
});

describe('health', () => {
  it('lists the APF post-start hooks where 1.23 does', async () => {
    const lines = (await c.get('/healthz?verbose')).text.split('\n');
    const at = (n: string) => lines.indexOf(`[+]poststarthook/${n} ok`);
    expect(at('priority-and-fairness-config-consumer')).toBe(at('generic-apiserver-start-informers') + 1);
    expect(at('priority-and-fairness-filter')).toBe(at('priority-and-fairness-config-consumer') + 1);
    expect(at('priority-and-fairness-config-producer')).toBe(at('scheduling/bootstrap-system-priority-classes') + 1);
  });
});
