import { describe, expect, it } from 'vitest';
import { ApiClient } from './client';
import { cutManagedFields, decodesWithoutManagedFields, decodeWatchLine } from './informer-decode';
import { stripManagedFields } from './informer-transform';

const parsedAndStripped = (line: string) => {
  const e = JSON.parse(line);
  return { ...e, object: stripManagedFields(e.object) };
};

describe('decodeWatchLine', () => {
  it('cuts a served pod\'s managedFields out of its text and gives what parsing and stripping give', async () => {
    const { createApiServer } = await import('../api');
    const api = await createApiServer({ controllers: '' });
    try {
      const client = new ApiClient(api.handle.bind(api), { username: 'u', groups: ['system:masters', 'system:authenticated'], fieldManager: 'kubelet' });
      await client.create('/api/v1/namespaces/default/pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { app: 'a' }, annotations: { note: 'a "quoted" ,"managedFields":[ text' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true }], finalizers: ['example.com/keep'] },
        spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      });
      await client.patch('/api/v1/namespaces/default/pods/p/status', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'merge');
      const res = await api.handle({ method: 'GET', url: '/api/v1/namespaces/default/pods/p', headers: { accept: 'application/json' } });
      const text = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body as Uint8Array);
      expect(JSON.parse(text).metadata.managedFields.length).toBe(2);
      const line = `{"type":"MODIFIED","object":${text}}`;
      const cut = cutManagedFields(line);
      expect(cut).toBeDefined();
      expect(cut!.includes('"managedFields"')).toBe(false);
      expect(decodeWatchLine(line)).toEqual(parsedAndStripped(line));
      expect(decodeWatchLine(line).object.metadata.annotations.note).toBe('a "quoted" ,"managedFields":[ text');
    } finally {
      await api.close();
    }
  });

  it('parses whole what is not in the shape the cut needs', () => {
    // managedFields not metadata's last member
    const notLast = '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p","managedFields":[{"manager":"m"}],"uid":"u"},"spec":{}}}';
    expect(cutManagedFields(notLast)).toBeUndefined();
    expect(decodeWatchLine(notLast).object.metadata).toEqual({ name: 'p', uid: 'u' });
    // a bracket inside a manager's name: the cut text does not parse, the whole line does
    const bracket = '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p","managedFields":[{"manager":"x}]},","operation":"Update"}]},"spec":{"a":1}}}';
    expect(cutManagedFields(bracket)).toBeDefined();
    expect(decodeWatchLine(bracket)).toEqual(parsedAndStripped(bracket));
    // no managedFields at all, and a bookmark
    const plain = '{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"p"}}}';
    expect(decodeWatchLine(plain)).toEqual(JSON.parse(plain));
    const bookmark = '{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"9"}}}';
    expect(decodeWatchLine(bookmark)).toEqual(JSON.parse(bookmark));
  });

  it('is used for the core group and dotless groups only', () => {
    expect(decodesWithoutManagedFields('/api/v1/pods')).toBe(true);
    expect(decodesWithoutManagedFields('/apis/apps/v1/replicasets')).toBe(true);
    expect(decodesWithoutManagedFields('/apis/storage.k8s.io/v1/storageclasses')).toBe(false);
    expect(decodesWithoutManagedFields('/apis/example.com/v1/widgets')).toBe(false);
  });
});
