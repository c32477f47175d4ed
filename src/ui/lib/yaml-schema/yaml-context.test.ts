import { describe, expect, it } from 'vitest';
import { groupVersion, yamlContext } from './yaml-context';

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: c
        image: nginx
        ports:
        - containerPort: 80
          prot
      volu
---
apiVersion: v1
kind: ConfigMap
data:
  `;
const lines = manifest.split('\n');
const at = (needle: string, extra = 0) => {
  const line = lines.findIndex((l) => l.includes(needle));
  return yamlContext(manifest, line, lines[line]!.indexOf(needle) + needle.length + extra);
};

describe('YAML context from indentation', () => {
  it('finds the path of the map around the cursor, list items included', () => {
    expect(at('replicas')).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', path: ['spec'], key: 'replicas' });
    expect(at('image')).toMatchObject({ path: ['spec', 'template', 'spec', 'containers', 0], key: 'image' });
    expect(at('name: c')).toMatchObject({ path: ['spec', 'template', 'spec', 'containers', 0], key: 'name' });
    expect(at('prot')).toMatchObject({ path: ['spec', 'template', 'spec', 'containers', 0, 'ports', 0] });
    expect(at('volu')).toMatchObject({ path: ['spec', 'template', 'spec'] });
    expect(at('kind: Deployment')).toMatchObject({ path: [], key: 'kind' });
  });

  it('reads apiVersion and kind from the cursor’s own document', () => {
    expect(yamlContext(manifest, lines.length - 1, 2)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', path: ['data'] });
    expect(yamlContext(manifest, lines.indexOf('---'), 0).path).toEqual([]);
  });

  it('handles indented lists and a blank line typed at a deeper column', () => {
    const text = 'spec:\n  containers:\n    - name: a\n      \n';
    expect(yamlContext(text, 3, 6).path).toEqual(['spec', 'containers', 0]);
    expect(yamlContext('metadata:\n  labels:\n    \n', 2, 4).path).toEqual(['metadata', 'labels']);
  });

  it('splits apiVersion into group and version', () => {
    expect(groupVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(groupVersion('v1')).toEqual({ group: '', version: 'v1' });
  });
});
