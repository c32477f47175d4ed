import { describe, expect, it } from 'vitest';
import { dropAtPath, getAtPath, parseFieldPath, setFromLive } from './config-edit';

const config = { spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx:1' }, { name: 'd', image: 'x' }] } } }, metadata: { finalizers: ['a/b', 'c/d'] } };
const live = { spec: { replicas: 5, template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }, { name: 'e', image: 'y' }] } } }, metadata: { labels: { app: 'w' } } };

describe('config edits at kube field paths', () => {
  it('parses fields, keys (several fields too), set values and indexes', () => {
    expect(parseFieldPath('.spec.ports[containerPort=80,protocol="TCP"].name')).toEqual([{ field: 'spec' }, { field: 'ports' }, { key: { containerPort: 80, protocol: 'TCP' } }, { field: 'name' }]);
    expect(parseFieldPath('.metadata.finalizers[="a/b"]')).toEqual([{ field: 'metadata' }, { field: 'finalizers' }, { value: 'a/b' }]);
    expect(parseFieldPath('.args[1]')).toEqual([{ field: 'args' }, { index: 1 }]);
    expect(parseFieldPath('spec')).toBeUndefined();
  });

  it('drops a field, a keyed item field and a set item, leaving the input untouched', () => {
    expect(dropAtPath(config, '.spec.replicas').spec).not.toHaveProperty('replicas');
    expect(dropAtPath(config, '.spec.template.spec.containers[name="c"].image').spec.template.spec.containers[0]).toEqual({ name: 'c' });
    expect(dropAtPath(config, '.metadata.finalizers[="a/b"]').metadata.finalizers).toEqual(['c/d']);
    expect(dropAtPath(config, '.spec.nope.x')).toBe(config);
    expect(config.spec.replicas).toBe(2);
  });

  it('copies live values into the config, creating parents and items as needed', () => {
    expect(setFromLive(config, live, '.spec.replicas').spec.replicas).toBe(5);
    expect(getAtPath(setFromLive(config, live, '.spec.template.spec.containers[name="c"].image'), '.spec.template.spec.containers[name="c"].image')).toBe('nginx:2');
    expect((setFromLive(config, live, '.metadata.labels.app') as { metadata: { labels?: unknown } }).metadata.labels).toEqual({ app: 'w' });
    expect(setFromLive(config, live, '.spec.template.spec.containers[name="e"].image').spec.template.spec.containers[2]).toEqual({ name: 'e', image: 'y' });
    expect(setFromLive(config, live, '.spec.missing')).toBe(config);
  });
});
