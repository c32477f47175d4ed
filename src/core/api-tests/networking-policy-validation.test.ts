// NetworkPolicy, IngressClass and PodDisruptionBudget defaults and validation through the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const NP = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';
const IC = '/apis/networking.k8s.io/v1/ingressclasses';
const pdbs = (version: string) => `/apis/policy/${version}/namespaces/default/poddisruptionbudgets`;

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('NetworkPolicy', () => {
  it('defaults policyTypes and port protocols on create', async () => {
    const r = await c.post(NP, { metadata: { name: uniqueName('np') }, spec: { egress: [{ ports: [{ port: 53 }] }] } });
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ podSelector: {}, egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }], policyTypes: ['Ingress', 'Egress'] });
  });

  it('refuses bad ports, peers and policy types', async () => {
    const name = uniqueName('np');
    const r = await c.post(NP, {
      metadata: { name },
      spec: { podSelector: {}, policyTypes: ['Ingres'], ingress: [{ ports: [{ port: 'dns', endPort: 60 }], from: [{}, { ipBlock: { cidr: '10.0.0.0/8', except: ['192.168.0.0/16'] } }] }] },
    });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        `NetworkPolicy.networking.k8s.io "${name}" is invalid: [` +
        'spec.ingress[0].ports[0].endPort: Invalid value: 60: may not be specified when `port` is non-numeric, ' +
        'spec.ingress[0].from[0]: Required value: must specify a peer, ' +
        'spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`, ' +
        'spec.policyTypes[0]: Unsupported value: "Ingres": supported values: "Ingress", "Egress"]',
    });
  });

  it('validates updates the same way', async () => {
    const name = uniqueName('np');
    expect((await c.post(NP, { metadata: { name }, spec: { podSelector: {} } })).status).toBe(201);
    const r = await c.patch(`${NP}/${name}`, { spec: { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, namespaceSelector: {} }] }] } });
    expect(failure(r).message).toBe(`NetworkPolicy.networking.k8s.io "${name}" is invalid: spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer`);
  });
});

describe('IngressClass', () => {
  it('defaults the parameters scope to Cluster', async () => {
    const r = await c.post(IC, { metadata: { name: uniqueName('ic') }, spec: { controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } } });
    expect(r.status).toBe(201);
    expect(r.json.spec.parameters).toEqual({ apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Cluster' });
  });

  it('requires a domain-prefixed controller and scope-consistent parameters', async () => {
    const name = uniqueName('ic');
    const r = await c.post(IC, { metadata: { name }, spec: { controller: 'nginx', parameters: { kind: 'Params', name: 'p', scope: 'Namespace' } } });
    expect(failure(r)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        `IngressClass.networking.k8s.io "${name}" is invalid: [spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo"), ` +
        "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace']",
    });
    expect(failure(await c.post(IC, { metadata: { name }, spec: {} })).message).toBe(`IngressClass.networking.k8s.io "${name}" is invalid: spec.controller: Required value`);
  });

  it('keeps the controller immutable', async () => {
    const name = uniqueName('ic');
    expect((await c.post(IC, { metadata: { name }, spec: { controller: 'example.com/a' } })).status).toBe(201);
    const r = await c.patch(`${IC}/${name}`, { spec: { controller: 'example.com/b' } });
    expect(failure(r).message).toBe(`IngressClass.networking.k8s.io "${name}" is invalid: spec.controller: Invalid value: "example.com/b": field is immutable`);
  });
});

describe('PodDisruptionBudget', () => {
  it('refuses minAvailable with maxUnavailable, in both versions', async () => {
    for (const version of ['v1', 'v1beta1']) {
      const name = uniqueName('pdb');
      const r = await c.post(pdbs(version), { metadata: { name }, spec: { minAvailable: 1, maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } });
      expect(failure(r)).toEqual({
        code: 422,
        reason: 'Invalid',
        message: `PodDisruptionBudget.policy "${name}" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1c0a0), Selector:(*v1.LabelSelector)(0xc000a1c0c0), MaxUnavailable:(*intstr.IntOrString)(0xc000a1c0e0)}: minAvailable and maxUnavailable cannot be both set`,
      });
    }
  });

  it('refuses percentages over 100% and negative counts', async () => {
    const name = uniqueName('pdb');
    const r = await c.post(pdbs('v1'), { metadata: { name }, spec: { maxUnavailable: '150%' } });
    expect(failure(r).message).toBe(`PodDisruptionBudget.policy "${name}" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`);
    const neg = await c.post(pdbs('v1'), { metadata: { name }, spec: { minAvailable: -1 } });
    expect(failure(neg).message).toBe(`PodDisruptionBudget.policy "${name}" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0`);
  });

  it('lets the spec change (mutable in 1.23), bumping generation, and validates the change', async () => {
    const name = uniqueName('pdb');
    expect((await c.post(pdbs('v1'), { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } })).status).toBe(201);
    const ok = await c.patch(`${pdbs('v1')}/${name}`, { spec: { minAvailable: 2, selector: { matchLabels: { app: 'db' } } } });
    expect(ok.status).toBe(200);
    expect(ok.json.metadata.generation).toBe(2);
    expect(ok.json.spec).toEqual({ minAvailable: 2, selector: { matchLabels: { app: 'db' } } });
    const both = await c.patch(`${pdbs('v1')}/${name}`, { spec: { maxUnavailable: 1 } });
    expect(failure(both).message).toContain('minAvailable and maxUnavailable cannot be both set');
  });

  it('takes names that are path segments, not only DNS subdomains', async () => {
    expect((await c.post(pdbs('v1'), { metadata: { name: 'Web_PDB' }, spec: { minAvailable: 1 } })).status).toBe(201);
    const r = await c.post(pdbs('v1'), { metadata: { name: 'a%b' }, spec: { minAvailable: 1 } });
    expect(failure(r).message).toBe(`PodDisruptionBudget.policy "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`);
  });

  it('checks status counts through policy/v1 only', async () => {
    const name = uniqueName('pdb');
    const created = await c.post(pdbs('v1'), { metadata: { name }, spec: { minAvailable: 1 } });
    expect(created.status).toBe(201);
    const status = { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    const v1 = await c.patch(`${pdbs('v1')}/${name}/status`, { status });
    expect(failure(v1).message).toBe(`PodDisruptionBudget.policy "${name}" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0`);
    expect((await c.patch(`${pdbs('v1beta1')}/${name}/status`, { status })).status).toBe(200);
  });
});
