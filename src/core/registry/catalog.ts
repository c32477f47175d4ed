// Which resources are served right now: the built-ins plus the custom resources of established
// CRDs. Discovery and OpenAPI are rebuilt from here when `generation` changes.
import type { ResourceInfo } from '../schema/resource-info';
import { strategyFor, type Strategy } from './strategy';
import type { KindSpec } from './kind-spec';
import { codecFor, storageKeyPrefix, type VersionCodec } from './conversion';
import { ConvertedTexts } from './converted-texts';

export interface ServedResource {
  info: ResourceInfo;
  /** The built-in kind's facts (kinds/); undefined for custom resources. */
  spec: KindSpec | undefined;
  strategy: Strategy;
  /** `group/version` or `version` for core. */
  apiVersion: string;
  /** Storage key prefix shared by every version of this group/resource: `/apps/deployments/`. */
  keyPrefix: string;
  /** Present when this version's shape differs from the storage version's (see conversion.ts). */
  codec?: VersionCodec;
}

const NO_CODECS: readonly VersionCodec[] = [];

function gvrKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export class Catalog {
  private byGVR = new Map<string, ServedResource>();
  /** The codecs of every served version sharing a storage key prefix (see conversion.ts). */
  private codecsByPrefix = new Map<string, VersionCodec[]>();
  /** One budget for every codec's converted texts, kept across rebuilds. */
  private readonly convertedTexts = new ConvertedTexts();
  private groupVersions = new Set<string>();
  private builtins: ResourceInfo[];
  /** Built-ins switched on (--runtime-config); every built-in by default. */
  private builtinEnabled: (info: ResourceInfo) => boolean = () => true;
  private custom: ResourceInfo[] = [];
  /** Bumped whenever the set of served resources changes. */
  generation = 0;
  private listeners: Array<() => void> = [];

  /**
   * `specs`: the built-in kinds' facts (the table in kinds/, handed in by the server that composes
   * the API: the store sits below the per-kind layer and never imports it).
   */
  constructor(
    builtins: ResourceInfo[],
    private readonly specs: (group: string, kind: string) => KindSpec | undefined = () => undefined,
  ) {
    this.builtins = builtins;
    this.rebuild();
  }

  private rebuild(): void {
    this.last = undefined;
    this.byGVR.clear();
    this.codecsByPrefix.clear();
    this.groupVersions.clear();
    for (const info of this.all()) {
      const keyPrefix = storageKeyPrefix(info);
      const codec = codecFor(info, this.convertedTexts);
      const spec = info.custom ? undefined : this.specs(info.group, info.kind);
      this.byGVR.set(gvrKey(info.group, info.version, info.resource), {
        info,
        spec,
        strategy: strategyFor(info, spec),
        apiVersion: apiVersionOf(info.group, info.version),
        keyPrefix,
        codec,
      });
      if (codec) {
        const shared = this.codecsByPrefix.get(keyPrefix);
        if (shared) shared.push(codec);
        else this.codecsByPrefix.set(keyPrefix, [codec]);
      }
      this.groupVersions.add(`${info.group}/${info.version}`);
    }
    this.generation++;
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The last lookup: a request looks its resource up twice (metrics/audit, then dispatch). */
  private last: { group: string; version: string; resource: string; found: ServedResource | undefined } | undefined;

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    const last = this.last;
    if (last && last.resource === resource && last.version === version && last.group === group) return last.found;
    const found = this.byGVR.get(gvrKey(group, version, resource));
    this.last = { group, version, resource, found };
    return found;
  }

  /** Codecs of the served versions stored under `keyPrefix` (none for most resources). */
  codecsAt(keyPrefix: string): readonly VersionCodec[] {
    return this.codecsByPrefix.get(keyPrefix) ?? NO_CODECS;
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.groupVersions.has(`${group}/${version}`);
  }

  all(): ResourceInfo[] {
    return [...this.builtins.filter(this.builtinEnabled), ...this.custom];
  }

  /** Serve only the built-ins `enabled` accepts (the others vanish from discovery and answer 404). */
  setBuiltinFilter(enabled: (info: ResourceInfo) => boolean): void {
    this.builtinEnabled = enabled;
    this.rebuild();
  }

  servedResources(): ServedResource[] {
    return [...this.byGVR.values()];
  }

  /** Every served version of one group/resource (built-in or custom). */
  versionsOf(group: string, resource: string): ServedResource[] {
    return this.servedResources().filter((r) => r.info.group === group && r.info.resource === resource);
  }

  /** Replace the custom resources contributed by one CRD (identified by group + plural). */
  setCustom(group: string, resource: string, infos: ResourceInfo[]): void {
    this.custom = this.custom.filter((c) => !(c.group === group && c.resource === resource)).concat(infos);
    this.rebuild();
  }

  removeCustom(group: string, resource: string): void {
    const before = this.custom.length;
    this.custom = this.custom.filter((c) => !(c.group === group && c.resource === resource));
    if (this.custom.length !== before) this.rebuild();
  }
}

export function objectKey(r: ServedResource, namespace: string, name: string): string {
  return r.info.namespaced ? `${r.keyPrefix}${namespace}/${name}` : `${r.keyPrefix}${name}`;
}

/** Prefix for a list: one namespace, or every namespace when namespace is ''. */
export function listPrefix(r: ServedResource, namespace: string): string {
  return r.info.namespaced && namespace ? `${r.keyPrefix}${namespace}/` : r.keyPrefix;
}
