import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinResources } from '../schema';
import { Catalog } from '../registry/catalog';
import { servesObjectItself, subresourceWrite } from '../registry/subresource-write';
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

describe('subresources that write the object itself', () => {
  const catalog = new Catalog([...builtinResources], specFor);
  const served = catalog.servedResources().filter((r) => !r.info.custom);
  const named = (filter: (r: (typeof served)[number], name: string) => boolean) =>
    [...new Set(served.flatMap((r) => r.info.subresources.filter((s) => filter(r, s.name)).map((s) => `${kindKey(r.info.group, r.info.kind)}/${s.name}`)))].sort();

  it('go through a write adapter wherever a built-in serves one that updates its own kind: status by the generic rule, the rest from the spec', () => {
    const updatable = named((r, name) => {
      const s = r.info.subresources.find((x) => x.name === name)!;
      return s.kind === r.info.kind && s.verbs.includes('update');
    });
    expect(named((r, name) => servesObjectItself(r, name))).toEqual(updatable);
    expect(updatable.filter((k) => !k.endsWith('/status'))).toEqual(['/Namespace/finalize', '/Pod/ephemeralcontainers', 'certificates.k8s.io/CertificateSigningRequest/approval']);
  });

  it('are declared only for subresources the kind serves; binding is one reached by POSTing a Binding', () => {
    const declared = allKindSpecs().flatMap((s) => Object.keys(s.subresourceWrites ?? {}).map((name) => `${kindKey(s.group, s.kind)}/${name}`));
    expect(declared.filter((k) => !named(() => true).includes(k))).toEqual([]);
    const pods = catalog.lookup('', 'v1', 'pods')!;
    expect(subresourceWrite(pods, 'binding')?.byCreate).toBe(true);
    expect(servesObjectItself(pods, 'binding')).toBe(false);
    expect(servesObjectItself(pods, 'log')).toBe(false);
    expect(subresourceWrite(catalog.lookup('apps', 'v1', 'deployments')!, 'scale')).toBeUndefined();
  });

  it('are not named by the store, the handlers or the dispatcher (the adapters are the only place)', () => {
    const core = fileURLToPath(new URL('..', import.meta.url));
    const sameObject = ['finalize', 'ephemeralcontainers', 'approval', 'binding'];
    const subresourceNames = [...new Set(builtinResources.flatMap((r) => r.subresources.map((s) => s.name)))].filter((n) => n !== 'status');
    // The store may name no subresource but the generic `status`; a custom resource's scale is
    // the one its CRD declares. The create handler takes a Binding body at pods/binding.
    const allowed = new Set(['registry/subresource-view.ts: scale', 'handlers/virtual.ts: binding']);
    const found: string[] = [];
    for (const dir of ['registry', 'handlers', 'server']) {
      for (const file of sourcesUnder(join(core, dir))) {
        const rel = file.slice(core.length).replaceAll('\\', '/').replace(/^\//, '');
        const text = readFileSync(file, 'utf8');
        for (const name of dir === 'registry' ? subresourceNames : sameObject) {
          if ((text.includes(`'${name}'`) || text.includes(`"${name}"`)) && !allowed.has(`${rel}: ${name}`)) found.push(`${rel}: ${name}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourcesUnder(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

describe('the only place per-kind facts live', () => {
  // ResourceQuota's evaluators keep their group/resource list (decision 0039): a plug-in's, not a
  // kind's; its status controller (decision 0042) reads the same resource.
  const ALLOWED = new Set(['admission/quota-usage.ts', 'admission/resource-quota.ts', 'controllers/builtin/quota-status-controller.ts']);
  const core = fileURLToPath(new URL('..', import.meta.url));

  it('is this table: no other source file keys a table by a built-in kind (group/Kind or group/resource)', () => {
    const keys = new Set(builtinResources.flatMap((r) => [kindKey(r.group, r.kind), `${r.group}/${r.resource}`]));
    const found: string[] = [];
    for (const file of sourcesUnder(core)) {
      const rel = file.slice(core.length).replaceAll('\\', '/').replace(/^\//, '');
      if (rel.startsWith('kinds/') || rel.startsWith('schema/generated/') || ALLOWED.has(rel)) continue;
      const text = readFileSync(file, 'utf8');
      for (const key of keys) if (text.includes(`'${key}'`) || text.includes(`"${key}"`)) found.push(`${rel}: ${key}`);
    }
    expect(found).toEqual([]);
  });
});
