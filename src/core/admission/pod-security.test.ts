import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';
import { podSecurityFindings } from './pod-security';

describe('PodSecurity enforce', () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await startTestServer();
    await c.post('/api/v1/namespaces', { metadata: { name: 'base', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } });
    await c.post('/api/v1/namespaces', { metadata: { name: 'strict', labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.23' } } });
  });
  afterAll(async () => {
    await c.close();
  });
  const pod = (ns: string, name: string, spec: object, container: object = {}) =>
    c.post(`/api/v1/namespaces/${ns}/pods`, { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx', ...container }], ...spec } });

  it('baseline refuses privileged pods with the check wording', async () => {
    const r = await pod('base', 'danger', {}, { securityContext: { privileged: true } });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "danger" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)');
  });

  it('baseline lists every failed check in check order', async () => {
    const r = await pod('base', 'host', { hostNetwork: true, volumes: [{ name: 'root', hostPath: { path: '/' } }] }, { ports: [{ containerPort: 80, hostPort: 80 }], securityContext: { capabilities: { add: ['NET_ADMIN'] } } });
    expect(r.json.message).toBe(
      'pods "host" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (container "app" must not include "NET_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true), hostPath volumes (volume "root"), hostPort (container "app" uses hostPort 80)',
    );
  });

  it('baseline admits an ordinary pod; unlabelled namespaces admit anything', async () => {
    expect((await pod('base', 'plain', {})).status).toBe(201);
    expect((await pod('default', 'priv', {}, { securityContext: { privileged: true } })).status).toBe(201);
  });

  it('restricted names what a plain pod lacks, with the label version', async () => {
    const r = await pod('strict', 'plain', {});
    expect(r.status).toBe(403);
    expect(r.json.message).toBe(
      'pods "plain" is forbidden: violates PodSecurity "restricted:v1.23": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('restricted admits a hardened pod', async () => {
    const spec = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
    const r = await pod('strict', 'hardened', spec, { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } });
    expect(r.status).toBe(201);
  });

  it('restricted checks volume types and plural wording', () => {
    const spec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      volumes: [{ name: 'data', emptyDir: {} }, { name: 'nfs', nfs: { server: 'x', path: '/' } }],
      containers: ['a', 'b'].map((name) => ({ name, securityContext: { capabilities: { drop: ['ALL'] } } })),
    };
    expect(podSecurityFindings('restricted', spec).map((f) => `${f.reason} (${f.detail})`)).toEqual([
      'allowPrivilegeEscalation != false (containers "a", "b" must set securityContext.allowPrivilegeEscalation=false)',
      'restricted volume types (volume "nfs" uses restricted volume type "nfs")',
    ]);
  });
});
