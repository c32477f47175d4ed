import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHostSettings, queryKeys } from './query-keys';

const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('query keys', () => {
  it('a list page\'s key starts with its resource\'s key, so invalidating the resource reaches every page', () => {
    const page = queryKeys.table.page('/base/', deployments, { namespace: 'default', labelSelector: 'app=web', limit: 10, pageIndex: 2 });
    const resource = queryKeys.table.resource('/base/', deployments);
    expect(page.slice(0, resource.length)).toEqual([...resource]);
    expect(page).toEqual(['table', '/base/', 'apps', 'v1', 'deployments', 'default', 'app=web', 10, 2]);
    // Another resource's or another base's pages are not reached.
    expect(queryKeys.table.resource('/other/', deployments)).not.toEqual(resource);
  });

  it('tells the host settings\' key from every other', () => {
    expect(isHostSettings(queryKeys.hostSettings('/base/'))).toBe(true);
    for (const key of [queryKeys.discovery('/base/'), queryKeys.audit('/base/'), queryKeys.object('/base/', deployments, 'default', 'web'), queryKeys.timeline('/base/__playground/', 'uid', '5')]) expect(isHostSettings(key)).toBe(false);
  });

  it('is the only place that builds a key: no component spells one inline', () => {
    const offenders = sources(join(__dirname, '..')).filter((f) => /queryKey:\s*\[/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
