// Field sets of other API versions. A manager's set is recorded at the apiVersion it wrote
// through; kube's structured-merge-diff compares an object change at each manager's own version
// (converting the old and new objects) before deciding conflicts and lost fields, and prunes an
// applier's dropped fields at the version it last applied with. The engine stays host-free of
// the registry: the caller hands in how to convert objects and type each version.
import { compare, type Comparison } from './compare';
import type { FieldSet } from './fieldset';
import { rootType, type SchemaRoot, type TypeNode } from './schema';

export interface VersionConverter {
  /**
   * True when objects at the two apiVersions spell every field path alike (the same JSON apart
   * from apiVersion), so field sets carry over unchanged and no conversion is needed.
   */
  samePaths(a: string, b: string): boolean;
  /** The object (JSON at `from`) as JSON at `to`. */
  convert(obj: unknown, from: string, to: string): unknown;
  /** The schema field paths at `apiVersion` are typed by. */
  schema(apiVersion: string): SchemaRoot;
}

/** The typed views of one write: the request's version plus whichever versions managers used. */
export class VersionViews {
  private readonly types = new Map<string, TypeNode>();

  constructor(
    /** The version of the request; objects handed to the engine are at this version. */
    readonly apiVersion: string,
    readonly requestType: TypeNode,
    private readonly converter: VersionConverter | undefined,
  ) {}

  /** The version whose paths a set recorded at `apiVersion` is read with (the request's when alike). */
  viewOf(apiVersion: string): string {
    if (!this.converter || apiVersion === this.apiVersion || this.converter.samePaths(apiVersion, this.apiVersion)) return this.apiVersion;
    return apiVersion;
  }

  typeAt(view: string): TypeNode {
    if (view === this.apiVersion || !this.converter) return this.requestType;
    let t = this.types.get(view);
    if (!t) this.types.set(view, (t = rootType(this.converter.schema(view))));
    return t;
  }

  /** An object between two views (request-version objects in, out, or both). */
  convert(obj: unknown, from: string, to: string): unknown {
    if (from === to || !this.converter || obj === undefined) return obj;
    return this.converter.convert(obj, from, to);
  }
}

/** compare(old, new) per view, each computed once, with `ignored` left out. */
export function comparisonsByView(
  views: VersionViews,
  oldObj: unknown,
  newObj: unknown,
  exclude: (c: Comparison) => Comparison,
): (view: string) => Comparison {
  const cache = new Map<string, Comparison>();
  return (view) => {
    let c = cache.get(view);
    if (!c) {
      const from = views.apiVersion;
      c = exclude(compare(views.convert(oldObj, from, view), views.convert(newObj, from, view), views.typeAt(view)));
      cache.set(view, c);
    }
    return c;
  };
}

/** Unions the sets of managers per view, for pruning. */
export function setsByView(views: VersionViews, sets: Iterable<{ set: FieldSet; apiVersion: string }>): Map<string, FieldSet> {
  const out = new Map<string, FieldSet>();
  for (const vs of sets) {
    const view = views.viewOf(vs.apiVersion);
    const prev = out.get(view);
    out.set(view, prev ? prev.union(vs.set) : vs.set);
  }
  return out;
}
