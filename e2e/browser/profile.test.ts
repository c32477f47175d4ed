// The browser host across a browser restart with the same profile, served from a sub-path, and
// the page's export / import / reset endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAndServe, json, launchProfile, openApp, pageFetch, type Site } from './harness';

const BASE = '/projects/kube-playground/';
const CM = 'api/v1/namespaces/default/configmaps';
let site: Site;
let profileDir: string;

beforeAll(async () => {
  site = await buildAndServe(BASE);
  profileDir = await mkdtemp(join(tmpdir(), 'kube-playground-profile-'));
}, 90_000);

afterAll(async () => {
  await site?.close();
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
});

describe('browser host from a sub-path, across a browser restart', () => {
  it('serves the API under the sub-path and keeps state across a restart with the same profile', async () => {
    expect(site.url.endsWith(BASE)).toBe(true);
    let revisionBefore: number;
    {
      const context = await launchProfile(profileDir);
      const { page, status } = await openApp(context, site.url);
      expect(status.mode).toBe('persistent');
      // The API is at <base>api/...; the same path outside the base is not ours.
      const created = await pageFetch(page, CM, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"kept"},"data":{"a":"1"}}' });
      expect(created.status).toBe(201);
      expect(created.contentType).toBe('application/json');
      revisionBefore = Number(json(created).metadata.resourceVersion);
      expect((await pageFetch(page, '/api/v1/namespaces')).status).toBe(404);
      await context.close();
    }
    {
      const context = await launchProfile(profileDir);
      const { page } = await openApp(context, site.url);
      const got = await pageFetch(page, `${CM}/kept`);
      expect(got.status).toBe(200);
      expect(json(got).data).toEqual({ a: '1' });
      const next = json(await pageFetch(page, CM, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"next"}}' }));
      expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(revisionBefore);

      // Export, reset, import.
      const exported = await pageFetch(page, '__playground/export');
      expect(exported.status).toBe(200);
      expect(exported.body).toContain('name: kept');
      expect(exported.body).toContain('managedFields');
      const reset = await pageFetch(page, '__playground/reset', { method: 'POST' });
      expect(reset.status).toBe(200);
      expect((await pageFetch(page, `${CM}/kept`)).status).toBe(404);
      expect((await pageFetch(page, 'api/v1/namespaces/kube-system')).status).toBe(200);
      const imported = await pageFetch(page, '__playground/import', { method: 'POST', body: exported.body });
      expect(JSON.parse(imported.body)).toMatchObject({ failed: [] });
      const back = await pageFetch(page, `${CM}/kept`);
      expect(back.status).toBe(200);
      expect(json(back).data).toEqual({ a: '1' });
      await context.close();
    }
  });
});
