// DaemonSet's deprecated template generation, as v1.23's daemonset registry strategy keeps it.
// The internal type has spec.templateGeneration; apps/v1 has no such field, so the conversion to
// v1 writes it into the annotation below and the conversion from v1 reads it back. The strategy
// sets it to 1 on create (unless the client gave a larger one) and, on update, keeps the stored
// value and adds one when spec.template changes. A client's value on update is ignored. The
// daemonset controller labels its pods `pod-template-generation: <value>` (controllers/daemonset-nodes.ts).
import type { ResourceHooks } from '../registry/context';
import type { Obj } from '../registry/objects';
import { semanticEqual } from '../validation/gofmt';

/** appsv1.DeprecatedTemplateGeneration: the DaemonSet annotation that carries spec.templateGeneration in apps/v1. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** The generation an object carries; 0 when it carries none (Go's zero value of the internal field). */
function carried(obj: Obj): number {
  const v = obj.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : 0;
  return Number.isSafeInteger(n) ? n : 0;
}

function carry(obj: Obj, generation: number): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

/** DaemonSet's hooks (its kind spec's, kinds/workloads.ts): PrepareForCreate's and PrepareForUpdate's template generation. */
export function daemonSetHooks(): ResourceHooks {
  return {
    beforeCreate(_c, _r, obj) {
      carry(obj, Math.max(carried(obj), 1));
    },
    // After defaulting, as kube compares defaulted templates: a replace that omits defaults is no change.
    beforeUpdate(_c, _r, next, old) {
      const stored = carried(old);
      carry(next, semanticEqual(next.spec?.template, old.spec?.template) ? stored : stored + 1);
    },
  };
}
