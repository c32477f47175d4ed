// pods/ephemeralcontainers (what `kubectl debug` writes): the subresource reads the Pod and
// changes spec.ephemeralContainers only; ephemeral containers are defaulted like containers,
// may not be set on create, added through the main resource, removed or changed, and may not
// have ports, probes, resources or lifecycle hooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, pod, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const PODS = '/api/v1/namespaces/default/pods';
const SMP = 'application/strategic-merge-patch+json';

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

async function makePod(): Promise<string> {
  const name = uniqueName('p');
  expect((await c.post(PODS, pod(name))).status).toBe(201);
  return name;
}

const debugger_ = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox', ...extra });

describe('pods/ephemeralcontainers', () => {
  it('GET answers the Pod', async () => {
    const name = await makePod();
    const r = await c.get(`${PODS}/${name}/ephemeralcontainers`);
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Pod');
    expect(r.json.metadata.name).toBe(name);
  });

  it('a strategic merge patch adds a defaulted ephemeral container and changes nothing else', async () => {
    const name = await makePod();
    const patch = { metadata: { labels: { ignored: 'yes' } }, spec: { ephemeralContainers: [debugger_('dbg', { targetContainerName: 'c' })], activeDeadlineSeconds: 5 } };
    const r = await c.patch(`${PODS}/${name}/ephemeralcontainers?fieldManager=kubectl-debug`, patch, SMP);
    expect(r.status).toBe(200);
    expect(r.json.spec.ephemeralContainers).toEqual([
      { name: 'dbg', image: 'busybox', targetContainerName: 'c', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' },
    ]);
    expect(r.json.metadata.labels?.ignored).toBeUndefined();
    expect(r.json.spec.activeDeadlineSeconds).toBeUndefined();
    const entry = r.json.metadata.managedFields.find((m: any) => m.manager === 'kubectl-debug');
    expect(entry.subresource).toBe('ephemeralcontainers');
    expect(Object.keys(entry.fieldsV1['f:spec'])).toEqual(['f:ephemeralContainers']);
  });

  it('existing ephemeral containers may not be removed or changed', async () => {
    const name = await makePod();
    const url = `${PODS}/${name}/ephemeralcontainers`;
    const added = await c.patch(url, { spec: { ephemeralContainers: [debugger_('a')] } }, SMP);
    expect(added.status).toBe(200);
    const removed = await c.put(url, { ...added.json, spec: { ...added.json.spec, ephemeralContainers: [] } });
    expect(failure(removed)).toEqual({ code: 422, reason: 'Invalid', message: `Pod "${name}" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "a" may not be removed\n` });
    const changed = await c.patch(url, { spec: { ephemeralContainers: [{ name: 'a', image: 'alpine' }] } }, SMP);
    expect(failure(changed)).toEqual({ code: 422, reason: 'Invalid', message: `Pod "${name}" is invalid: spec.ephemeralContainers.a: Forbidden: existing ephemeral containers "a" may not be changed\n` });
  });

  it('names are unique across all containers, the target must exist, and ports, probes and resources are refused', async () => {
    const name = await makePod();
    const bad = debugger_('c', { targetContainerName: 'nope', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } }, readinessProbe: { exec: { command: ['true'] } } });
    const r = await c.patch(`${PODS}/${name}/ephemeralcontainers`, { spec: { ephemeralContainers: [bad] } }, SMP);
    const f = failure(r);
    expect(f.code).toBe(422);
    expect(f.message).toBe(
      `Pod "${name}" is invalid: [spec.ephemeralContainers[0].name: Duplicate value: "c", spec.ephemeralContainers[0].targetContainerName: Not found: "nope", spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container]`,
    );
  });

  it('they cannot be set on create, nor changed through the Pod itself', async () => {
    const name = uniqueName('p');
    const body = pod(name);
    body.spec.ephemeralContainers = [debugger_('dbg')];
    const created = await c.post(PODS, body);
    expect(failure(created).message).toBe(`Pod "${name}" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create`);
    const other = await makePod();
    const r = await c.patch(`${PODS}/${other}`, { spec: { ephemeralContainers: [debugger_('dbg')] } }, SMP);
    expect(failure(r).code).toBe(422);
    expect(failure(r).message).toContain('spec: Forbidden: pod updates may not change fields other than');
  });
});
