// The Warning a deprecated CRD version answers with: the version's own deprecationWarning, or
// kube-apiserver's default `<group>/<version> <Kind> is deprecated`, which recommends the
// highest-priority served, non-deprecated version that ranks above the deprecated one.
import type { Obj } from '../registry/objects';
import { compareVersionPriority } from '../schema/versions';

export function crdDeprecationWarning(crd: Obj, version: string): string {
  const spec = crd.spec ?? {};
  const versions: Obj[] = Array.isArray(spec.versions) ? spec.versions : [];
  const own = versions.find((v) => v?.name === version);
  if (typeof own?.deprecationWarning === 'string') return own.deprecationWarning;
  const kind = spec.names?.kind;
  let msg = `${spec.group}/${version} ${kind} is deprecated`;
  // compareVersionPriority(a, b) < 0: a is preferred over b (v2 > v1 > v1beta2 > v1alpha1).
  const better = versions
    .filter((v) => v?.served === true && v.deprecated !== true && typeof v.name === 'string' && compareVersionPriority(v.name, version) < 0)
    .map((v) => v.name as string)
    .sort(compareVersionPriority);
  if (better.length > 0) msg += `; use ${spec.group}/${better[0]} ${kind}`;
  return msg;
}
