// The table of every built-in kind (decision 0039): the one place a built-in kind's facts live.
// Adding a kind: its entry in one of the group files below, its rules (validation/) and its
// printer (codec/table/printers/). kinds.test.ts checks that every served built-in has an entry.
import { kindKey, type KindSpec } from '../registry/kind-spec';
import type { KindRules } from '../validation/kind-rules';
import type { NameRule } from '../validation/names';
import type { Printer } from '../codec/table/types';
import { CORE_KINDS } from './core';
import { WORKLOAD_KINDS } from './workloads';
import { NETWORKING_KINDS } from './networking';
import { CLUSTER_KINDS } from './cluster';

export { kindKey, type KindSpec } from '../registry/kind-spec';
export type { KindHookEnv } from '../registry/kind-hook-env';

const SPECS = new Map<string, KindSpec>();
for (const spec of [...CORE_KINDS, ...WORKLOAD_KINDS, ...NETWORKING_KINDS, ...CLUSTER_KINDS]) {
  const key = kindKey(spec.group, spec.kind);
  if (SPECS.has(key)) throw new Error(`kind ${key} has two specs`);
  SPECS.set(key, spec);
}

/** The spec of a built-in kind; undefined for kinds that are not built in (custom resources). */
export function specFor(group: string, kind: string): KindSpec | undefined {
  return SPECS.get(kindKey(group, kind));
}

export function allKindSpecs(): KindSpec[] {
  return [...SPECS.values()];
}

/** A built-in kind's validation and defaulting rules (its spec's `rules`). */
export function rulesFor(group: string, kind: string): KindRules | undefined {
  return specFor(group, kind)?.rules;
}

/** The ValidateNameFunc kube-apiserver uses for the kind's metadata.name. */
export function nameRuleFor(group: string, kind: string): NameRule {
  return specFor(group, kind)?.nameRule ?? 'subdomain';
}

/** The printer of a built-in kind, or undefined when kube-apiserver has none (the generic table). */
export function printerFor(group: string, kind: string): Printer | undefined {
  return specFor(group, kind)?.printer;
}

/** The field-selector facts of a built-in kind (its spec's `fieldSelectors`), as the selectors take them. */
export function fieldSelectorsOf(group: string, kind: string): KindSpec['fieldSelectors'] {
  return specFor(group, kind)?.fieldSelectors;
}
