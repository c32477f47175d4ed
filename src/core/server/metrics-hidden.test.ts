import { describe, expect, it } from 'vitest';
import { createApiServer } from '../api';
import { isHiddenDeprecation, SHOW_HIDDEN_METRICS_VERSION, validateShowHiddenMetricsVersion } from './metrics-hidden';
import { Gauge, MetricsRegistry } from './metrics-registry';
import { ApiMetrics } from './metrics';
import { StartupError } from './runtime-config';
import { startTestServer } from '../testing/api-server';

const KUBE_MESSAGE = "--show-hidden-metrics-for-version must be omitted or have the value '1.22'. Only the previous minor version is allowed";

describe('validateShowHiddenMetricsVersion', () => {
  it('accepts nothing, the empty string and the previous minor only', () => {
    expect(SHOW_HIDDEN_METRICS_VERSION).toBe('1.22');
    for (const ok of [undefined, '', '1.22']) expect(() => validateShowHiddenMetricsVersion(ok)).not.toThrow();
  });
  it('fails any other value with kube-apiserver message', () => {
    for (const bad of ['1.21', '1.23', '1.22.0', 'v1.22', 'x']) {
      expect(() => validateShowHiddenMetricsVersion(bad)).toThrow(StartupError);
      expect(() => validateShowHiddenMetricsVersion(bad)).toThrow(KUBE_MESSAGE);
    }
  });
});

describe('isHiddenDeprecation', () => {
  it('hides metrics deprecated before the current minor (1.23), whatever the patch', () => {
    expect(isHiddenDeprecation('1.22.0')).toBe(true);
    expect(isHiddenDeprecation('1.21.5')).toBe(true);
    expect(isHiddenDeprecation('0.30.0')).toBe(true);
    expect(isHiddenDeprecation('1.23.0')).toBe(false);
    expect(isHiddenDeprecation('1.23.9')).toBe(false);
    expect(isHiddenDeprecation('1.24.0')).toBe(false);
  });
});

describe('MetricsRegistry with deprecated families', () => {
  it('leaves hidden families out unless hidden metrics are shown', () => {
    const registry = new MetricsRegistry();
    registry.register(new Gauge('old_total', '[ALPHA] (Deprecated since 1.22.0) Old.'), '1.22.0').set({}, 3);
    registry.register(new Gauge('recent_total', '[ALPHA] (Deprecated since 1.23.0) Recent.'), '1.23.0').set({}, 2);
    expect(registry.render()).toBe('# HELP recent_total [ALPHA] (Deprecated since 1.23.0) Recent.\n# TYPE recent_total gauge\nrecent_total 2\n');
    registry.showHidden = true;
    expect(registry.render()).toBe(
      '# HELP old_total [ALPHA] (Deprecated since 1.22.0) Old.\n# TYPE old_total gauge\nold_total 3\n# HELP recent_total [ALPHA] (Deprecated since 1.23.0) Recent.\n# TYPE recent_total gauge\nrecent_total 2\n',
    );
  });
});

describe('etcd_object_counts (deprecated in 1.22, hidden in 1.23)', () => {
  const counts = () => [{ resource: 'pods', count: 4 }];
  const HELP = '# HELP etcd_object_counts [ALPHA] (Deprecated since 1.22.0) Number of stored objects at the time of last check split by kind. This metric is replaced by apiserver_storage_object_counts.\n# TYPE etcd_object_counts gauge\n';

  it('is hidden by default while apiserver_storage_objects is served', () => {
    const text = new ApiMetrics(counts).render();
    expect(text).toContain('apiserver_storage_objects{resource="pods"} 4\n');
    expect(text).not.toContain('etcd_object_counts');
  });
  it('appears with the same counts once hidden metrics are shown', () => {
    const metrics = new ApiMetrics(counts);
    metrics.showHiddenMetrics();
    expect(metrics.render()).toContain(`${HELP}etcd_object_counts{resource="pods"} 4\n`);
  });
  it('createApiServer shows it for showHiddenMetricsForVersion 1.22 and refuses other versions', async () => {
    const c = await startTestServer({ showHiddenMetricsForVersion: '1.22' });
    try {
      const text = (await c.get('/metrics')).text;
      expect(text).toContain(HELP);
      expect(text).toMatch(/etcd_object_counts\{resource="namespaces"\} [1-9]/);
    } finally {
      await c.close();
    }
    const plain = await startTestServer();
    try {
      expect((await plain.get('/metrics')).text).not.toContain('etcd_object_counts');
    } finally {
      await plain.close();
    }
    await expect(createApiServer({ showHiddenMetricsForVersion: '1.21' })).rejects.toThrow(KUBE_MESSAGE);
  });
});
