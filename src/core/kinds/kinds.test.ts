import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinResources } from '../schema';
import { Catalog } from '../registry/catalog';
import { allKindSpecs, kindKey, specFor } from './index';

describe('the table of built-in kinds', () => {
  it('has a spec for every served built-in kind', () => {
    const missing = builtinResources.filter((r) => !specFor(r.group, r.kind)).map((r) => kindKey(r.group, r.kind));
    expect(missing).toEqual([]);
  });

  it('has no spec for a kind that is not served', () => {
    const served = new Set(builtinResources.map((r) => kindKey(r.group, r.kind)));
    expect(allKindSpecs().map((s) => kindKey(s.group, s.kind)).filter((k) => !served.has(k))).toEqual([]);
  });

  it('is what every served built-in resource carries, and custom resources carry none', () => {
    const catalog = new Catalog([...builtinResources], specFor);
    for (const r of catalog.servedResources()) expect(r.spec).toBe(specFor(r.info.group, r.info.kind));
    catalog.setCustom('example.com', 'widgets', [{ ...builtinResources[0], group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Pod', custom: true }]);
    expect(catalog.lookup('example.com', 'v1', 'widgets')?.spec).toBeUndefined();
  });

  it('gives the store its strategy facts from the spec', () => {
    const catalog = new Catalog([...builtinResources], specFor);
    const deployments = catalog.lookup('apps', 'v1', 'deployments')!;
    expect(deployments.strategy.tracksGeneration).toBe(true);
    expect(deployments.strategy.allowCreateOnUpdate).toBe(false);
    const services = catalog.lookup('', 'v1', 'services')!;
    expect(services.strategy.allowCreateOnUpdate).toBe(true);
    const svc: Record<string, unknown> = { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } };
    services.strategy.prepareForCreate(svc);
    expect(svc.status).toEqual({ loadBalancer: {} });
  });

  it('keys every kind one way: group/Kind', () => {
    expect(kindKey('', 'Pod')).toBe('/Pod');
    expect(specFor('apps', 'Deployment')?.podTemplatePath).toEqual(['spec', 'template']);
    expect(specFor('apps', 'deployments')).toBeUndefined();
  });
});

describe('subresources served as another kind', () => {
  it('have a view in the kind spec wherever a built-in serves one that can be read (scale)', () => {
    const readable = builtinResources.flatMap((r) => r.subresources.filter((s) => s.kind !== r.kind && s.verbs.includes('get') && s.group).map((s) => `${kindKey(r.group, r.kind)}/${s.name}`));
    const withView = allKindSpecs().flatMap((s) => Object.keys(s.views ?? {}).map((name) => `${kindKey(s.group, s.kind)}/${name}`));
    expect(withView.sort()).toEqual(readable.sort());
    expect(readable).toContain('apps/Deployment/scale');
  });
});

describe('the only place per-kind facts live', () => {
  // ResourceQuota's evaluators keep their group/resource list (decision 0039): a plug-in's, not a kind's.
  const ALLOWED = new Set(['admission/quota-usage.ts', 'admission/resource-quota.ts']);
  const core = fileURLToPath(new URL('..', import.meta.url));
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));

  it('is this table: no other source file keys a table by a built-in kind (group/Kind or group/resource)', () => {
    const keys = new Set(builtinResources.flatMap((r) => [kindKey(r.group, r.kind), `${r.group}/${r.resource}`]));
    const found: string[] = [];
    for (const file of sources(core)) {
      const rel = file.slice(core.length).replaceAll('\\', '/').replace(/^\//, '');
      if (rel.startsWith('kinds/') || rel.startsWith('schema/generated/') || ALLOWED.has(rel)) continue;
      const text = readFileSync(file, 'utf8');
      for (const key of keys) if (text.includes(`'${key}'`) || text.includes(`"${key}"`)) found.push(`${rel}: ${key}`);
    }
    expect(found).toEqual([]);
  });
});
