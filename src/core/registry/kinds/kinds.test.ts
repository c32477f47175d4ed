import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../schema';
import { Catalog } from '../catalog';
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
    const catalog = new Catalog([...builtinResources]);
    for (const r of catalog.servedResources()) expect(r.spec).toBe(specFor(r.info.group, r.info.kind));
    catalog.setCustom('example.com', 'widgets', [{ ...builtinResources[0], group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Pod', custom: true }]);
    expect(catalog.lookup('example.com', 'v1', 'widgets')?.spec).toBeUndefined();
  });

  it('gives the store its strategy facts from the spec', () => {
    const catalog = new Catalog([...builtinResources]);
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
