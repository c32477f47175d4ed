// One built-in kind's facts, in one place: what the generic store, validation, Table output and
// admission need to know about it (decision 0039). The table of every built-in kind is index.ts;
// custom resources (CRDs) have no spec and get the generic behaviour.
import type { Obj } from './objects';
import type { ResourceHooks } from './context';
import type { KindRules } from '../validation/kind-rules';
import type { NameRule } from '../validation/names';
import type { Printer } from '../codec/table/types';
import type { KindHookEnv } from './kind-hook-env';
import type { SubresourceView } from './subresource-view';
import type { SubresourceWrite } from './subresource-write';
import type { KindFieldSet } from '../selectors/field-sets';
import type { FieldLabelConverter } from '../selectors/fields';

export interface KindSpec {
  /** API group, '' for core. */
  group: string;
  kind: string;
  /** metadata.generation starts at 1 and is bumped when anything but metadata and status changes (the REST strategy's). */
  tracksGeneration?: boolean;
  /** PUT of a missing object creates it (the REST strategy's AllowCreateOnUpdate). */
  createOnUpdate?: boolean;
  /** Status a freshly created object starts with (only kinds with a status subresource); others start without status. */
  initialStatus?: () => Obj;
  /**
   * A status strategy that resets only these fields, so a status write keeps the annotations it
   * carries and owns them: kube's deploymentStatusStrategy resets spec and labels (the deployment
   * controller records its revision annotation with the status), autoscalerStatusStrategy spec
   * only (the HPA's v1 status write carries its conditions in annotations). Absent: a status
   * write changes status alone.
   */
  statusResets?: readonly (readonly string[])[];
  /** spec.finalizers hold the object in storage too, beside metadata.finalizers (Namespace: its finalize subresource empties them). */
  finalizersInSpec?: boolean;
  /** Defaulting and validation of the kind (validation/). */
  rules?: KindRules;
  /** The ValidateNameFunc for metadata.name; DNS-1123 subdomain when absent. */
  nameRule?: NameRule;
  /** Table columns kube-apiserver prints for it; the generic Name/Created At table when absent. */
  printer?: Printer;
  /** Fields a field selector may name beyond metadata's: the selectable fields and the label conversion. */
  fieldSelectors?: { fields: KindFieldSet; labels: FieldLabelConverter };
  /** Where the pod template of a workload lives (PodSecurity checks it). */
  podTemplatePath?: readonly string[];
  /** Subresources served as another kind through the object (`scale`), by subresource name. */
  views?: Readonly<Record<string, SubresourceView>>;
  /**
   * Subresources of the object itself, by name, and what a write through each may change
   * (Namespace `finalize`, Pod `ephemeralcontainers` and `binding`, CertificateSigningRequest
   * `approval`): store adapters the generic store applies (subresource-write.ts). `status` needs
   * no entry: its rule is generic (with `statusResets` above).
   */
  subresourceWrites?: Readonly<Record<string, SubresourceWrite>>;
  /**
   * A create of this kind is a POST of it to this subresource of the object its metadata.name
   * names, and nothing of the kind is stored (Binding: the legacy `bindings` collection binds
   * through pods/<name>/binding, kube's LegacyBindingREST).
   */
  createsThrough?: { resource: string; subresource: string };
  /** The kind's own registry hooks (allocation, lifecycle, status on create), made once per API server. */
  hooks?: (env: KindHookEnv) => ResourceHooks;
}

/** The one key spelling of a built-in kind: `group/Kind`, '' for core (`/Pod`, `apps/Deployment`). */
export function kindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}
