import { describe, expect, it } from 'vitest';
import { goOrderOf, inGoOrder, toGoForm } from './go-order';
import { toStoredText } from './objects';
import { startTestServer, MERGE_PATCH } from '../testing/api-server';

const keys = (o: unknown) => Object.keys(o as object);

describe('Go key order (encoding/json on the Go struct)', () => {
  it('struct fields in declaration order, maps sorted bytewise, at every level', () => {
    const desc = goOrderOf('apps/v1', 'Deployment')!;
    const out = inGoOrder(desc, {
      spec: {
        template: { spec: { containers: [{ env: [{ value: 'v', name: 'E' }], image: 'i', name: 'c' }] }, metadata: { labels: { z: '1', B: '2', a: '3' } } },
        strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }, type: 'RollingUpdate' },
        replicas: 2,
      },
      metadata: { name: 'd' },
    }) as any;
    // (TypeMeta is not part of the message: kind and apiVersion are the caller's to place.)
    expect(keys(out)).toEqual(['metadata', 'spec', 'status']);
    // selector is a required pointer (no omitempty): Go writes a nil one as null.
    expect(keys(out.spec)).toEqual(['replicas', 'selector', 'template', 'strategy']);
    expect(out.spec.selector).toBeNull();
    expect(keys(out.spec.strategy)).toEqual(['type', 'rollingUpdate']);
    expect(keys(out.spec.strategy.rollingUpdate)).toEqual(['maxUnavailable', 'maxSurge']);
    expect(keys(out.spec.template)).toEqual(['metadata', 'spec']);
    expect(keys(out.spec.template.metadata.labels)).toEqual(['B', 'a', 'z']);
    expect(keys(out.spec.template.spec.containers[0])).toEqual(['name', 'image', 'env', 'resources']);
    expect(keys(out.spec.template.spec.containers[0].env[0])).toEqual(['name', 'value']);
  });

  it('shares what is already in order, copies what moves, never changes the input', () => {
    const desc = goOrderOf('v1', 'ConfigMap')!;
    const inOrder = { metadata: { name: 'a', creationTimestamp: '2021-01-01T00:00:00Z', labels: { a: '1', b: '2' } }, data: { a: '1', b: '2' } };
    expect(inGoOrder(desc, inOrder)).toBe(inOrder);
    const data = { b: '1', a: '2', __proto__x: '3' };
    const obj = { data, metadata: { name: 'a', creationTimestamp: '2021-01-01T00:00:00Z' } };
    const out = inGoOrder(desc, obj) as any;
    expect(keys(obj)).toEqual(['data', 'metadata']);
    expect(keys(data)).toEqual(['b', 'a', '__proto__x']);
    expect(keys(out)).toEqual(['metadata', 'data']);
    expect(keys(out.data)).toEqual(['__proto__x', 'a', 'b']);
    expect(out.metadata).toBe(obj.metadata);
  });

  it('keeps a __proto__ map key an ordinary key', () => {
    const desc = goOrderOf('v1', 'ConfigMap')!;
    const data = JSON.parse('{"z":"1","__proto__":"2"}');
    const out = inGoOrder(desc, { data }) as any;
    expect(JSON.stringify(out.data)).toBe('{"__proto__":"2","z":"1"}');
  });

  it('writes raw extensions as sent', () => {
    const rev = toStoredText({ apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 1, data: { z: 1, a: 2 }, metadata: { name: 'r' } });
    // (An object never stored has a zero creationTimestamp: a struct, written as null.)
    expect(rev).toBe('{"metadata":{"name":"r","creationTimestamp":null},"data":{"z":1,"a":2},"revision":1}');
  });
});

describe('zero values as encoding/json writes them', () => {
  const cronJob = () => ({
    metadata: { name: 'cj' },
    spec: { schedule: '* * * * *', suspend: false, jobTemplate: { spec: { template: { spec: { hostNetwork: false, containers: [{ name: 'c', image: 'i', workingDir: '', stdin: false }] } } } } },
  });

  it('omitempty zero values go; pointers keep theirs; structs are always written, zero times as null', () => {
    const out = inGoOrder(goOrderOf('batch/v1', 'CronJob')!, cronJob()) as any;
    // suspend is a *bool: false is a value. hostNetwork, workingDir and stdin are omitempty.
    expect(out.spec.suspend).toBe(false);
    expect(out.spec.jobTemplate.metadata).toEqual({ creationTimestamp: null });
    expect(out.spec.jobTemplate.spec.template.metadata).toEqual({ creationTimestamp: null });
    expect(out.spec.jobTemplate.spec.template.spec).toEqual({ containers: [{ name: 'c', image: 'i', resources: {} }] });
    expect(out.status).toEqual({});
  });

  it('fields without omitempty are written when absent: nil lists as null, strings empty, nested structs filled', () => {
    const ev = inGoOrder(goOrderOf('v1', 'Event')!, { metadata: { name: 'e' }, involvedObject: { kind: 'Pod' } }) as any;
    expect(ev).toEqual({ metadata: { name: 'e', creationTimestamp: null }, involvedObject: { kind: 'Pod' }, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' });
    const role = inGoOrder(goOrderOf('rbac.authorization.k8s.io/v1', 'ClusterRole')!, { metadata: { name: 'r' } }) as any;
    expect(role.rules).toBeNull();
    const node = inGoOrder(goOrderOf('v1', 'Node')!, { metadata: { name: 'n' } }) as any;
    expect(node.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(node.status.nodeInfo.machineID).toBe('');
  });

  it('a null struct is its zero value; a null omitempty field goes', () => {
    const out = inGoOrder(goOrderOf('v1', 'Pod')!, { metadata: { name: 'p', creationTimestamp: null }, spec: { containers: [{ name: 'c', resources: null, securityContext: null }], nodeSelector: null } }) as any;
    expect(out.spec).toEqual({ containers: [{ name: 'c', resources: {} }] });
  });

  it('toGoForm leaves out the zero values that encode as null (the field manager does not own them), in place', () => {
    const obj: any = { kind: 'CronJob', apiVersion: 'batch/v1', ...cronJob() };
    obj.spec.jobTemplate.metadata = { creationTimestamp: null };
    toGoForm(obj);
    expect(obj.spec.jobTemplate.metadata).toEqual({});
    expect(obj.spec.jobTemplate.spec.template.spec.containers[0]).toEqual({ name: 'c', image: 'i', resources: {} });
    expect(obj.kind).toBe('CronJob');
    const custom: any = { kind: 'W', apiVersion: 'x.example.com/v1', spec: { a: '' } };
    toGoForm(custom);
    expect(custom.spec).toEqual({ a: '' });
  });
});

describe('through the API', () => {
  it('a create, an apply and a merge patch all answer and store Go order', async () => {
    const c = await startTestServer();
    try {
      const U = '/apis/apps/v1/namespaces/default/deployments';
      const d = (name: string) => ({ kind: 'Deployment', apiVersion: 'apps/v1', metadata: { labels: { z: '1', a: '1' }, name }, spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ image: 'i', name: 'c' }] } }, selector: { matchLabels: { app: 'x' } } } });
      const created = await c.post(U, d('made'));
      const applied = await c.patch(`${U}/applied?fieldManager=m`, JSON.stringify(d('applied')), 'application/apply-patch+yaml');
      const patched = await c.patch(`${U}/made`, { spec: { template: { metadata: { labels: { b: '2' } } } } }, MERGE_PATCH);
      for (const r of [created, applied, patched, await c.get(`${U}/applied`)]) {
        expect(r.text).toMatch(/^\{"kind":"Deployment","apiVersion":"apps\/v1","metadata":\{"name":"[a-z]+","namespace":"default",.*"labels":\{"a":"1","z":"1"\}/);
        expect(r.text).toContain('"spec":{"replicas":1,"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"creationTimestamp":null,"labels":{');
        expect(r.text).toContain('"containers":[{"name":"c","image":"i","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always"');
      }
      expect(patched.text).toContain('"labels":{"app":"x","b":"2"}');
    } finally {
      await c.close();
    }
  });
});
