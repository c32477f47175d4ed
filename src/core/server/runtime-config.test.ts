// --runtime-config and --feature-gates: parsing, start-up failures, and what the API serves.
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/api-server';
import { createMemoryBackend } from '../storage/memory-backend';
import { parseFeatureGates } from './runtime-config-gates';
import { parseRuntimeConfig } from './runtime-config';
import { builtinResources } from '../schema';

const CRONJOB = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'tick' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
};

describe('--runtime-config', () => {
  it('parses group/versions, resources, api/all and bare keys (true)', () => {
    const info = (group: string, version: string, resource: string) => builtinResources.find((i) => i.group === group && i.version === version && i.resource === resource)!;
    const cfg = parseRuntimeConfig('api/all=false, batch/v1, apps/v1/deployments=true, api/v1=true', builtinResources);
    expect(cfg.enabled(info('batch', 'v1', 'cronjobs'))).toBe(true);
    expect(cfg.enabled(info('batch', 'v1beta1', 'cronjobs'))).toBe(false);
    expect(cfg.enabled(info('apps', 'v1', 'deployments'))).toBe(true);
    expect(cfg.enabled(info('apps', 'v1', 'statefulsets'))).toBe(false);
    expect(cfg.enabled(info('', 'v1', 'pods'))).toBe(true);
  });

  it('rejects unknown group/versions and values that are not booleans', () => {
    expect(() => parseRuntimeConfig('batch/v9=true', builtinResources)).toThrow('unknown api groups batch/v9');
    expect(() => parseRuntimeConfig('batch/v1beta1=nope', builtinResources)).toThrow('invalid value of batch/v1beta1: nope, err: strconv.ParseBool: parsing "nope": invalid syntax');
  });

  it('a disabled group/version answers 404 and leaves discovery and OpenAPI; its objects stay readable through the other version', async () => {
    const backend = createMemoryBackend();
    const before = await startTestServer({ backend });
    expect((await before.post('/apis/batch/v1/namespaces/default/cronjobs', CRONJOB)).status).toBe(201);
    await before.close();
    const c = await startTestServer({ backend, runtimeConfig: 'batch/v1beta1=false' });
    try {
      expect((await c.get('/apis/batch/v1beta1/namespaces/default/cronjobs/tick')).status).toBe(404);
      expect((await c.get('/apis/batch/v1beta1')).status).toBe(404);
      const group = await c.get('/apis/batch');
      expect(group.json.versions.map((v: { version: string }) => v.version)).toEqual(['v1']);
      const openapi = await c.get('/openapi/v3');
      expect(Object.keys(openapi.json.paths)).toContain('apis/batch/v1');
      expect(Object.keys(openapi.json.paths)).not.toContain('apis/batch/v1beta1');
      const kept = await c.get('/apis/batch/v1/namespaces/default/cronjobs/tick');
      expect(kept.status).toBe(200);
      expect(kept.json.spec.schedule).toBe('*/5 * * * *');
    } finally {
      await c.close();
    }
  });

  it('fails start-up on an invalid value', async () => {
    await expect(startTestServer({ runtimeConfig: 'extensions/v1beta1=true' })).rejects.toThrow('unknown api groups extensions/v1beta1');
  });
});

describe('--feature-gates', () => {
  it('refuses to switch off a locked GA gate, with component-base wording', async () => {
    expect(() => parseFeatureGates('ServerSideApply=false')).toThrow('cannot set feature gate ServerSideApply to false, feature is locked to true');
    expect(() => parseFeatureGates('NoSuchGate=true')).toThrow('unrecognized feature gate: NoSuchGate');
    await expect(startTestServer({ featureGates: 'ServerSideApply=false' })).rejects.toThrow('feature is locked to true');
  });

  it('warns about deprecated and GA gates that are set', () => {
    expect(parseFeatureGates('DynamicKubeletConfig=true,WatchBookmark=true').warnings).toEqual([
      'Setting deprecated feature gate DynamicKubeletConfig=true. It will be removed in a future release.',
      'Setting GA feature gate WatchBookmark=true. It will be removed in a future release.',
    ]);
  });

  it('APIListChunking=false makes lists ignore limit', async () => {
    const c = await startTestServer({ featureGates: 'APIListChunking=false' });
    try {
      for (const name of ['a', 'b', 'c']) await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name } });
      const list = await c.get('/api/v1/namespaces/default/configmaps?limit=1');
      expect(list.json.items).toHaveLength(4); // and kube-root-ca.crt
      expect(list.json.metadata.continue).toBeUndefined();
    } finally {
      await c.close();
    }
    const chunking = await startTestServer();
    try {
      for (const name of ['a', 'b']) await chunking.post('/api/v1/namespaces/default/configmaps', { metadata: { name } });
      expect((await chunking.get('/api/v1/namespaces/default/configmaps?limit=1')).json.items).toHaveLength(1);
    } finally {
      await chunking.close();
    }
  });
});
