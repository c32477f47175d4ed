// Policy, RBAC, scheduling, storage and admission kinds: RoleBinding, ClusterRoleBinding, Lease,
// PodDisruptionBudget, PriorityClass, StorageClass, webhook configurations, RuntimeClass,
// ControllerRevision.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, int, str } from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';

function name(obj: KubeObject): string {
  return str(asRecord(obj.metadata).name);
}

function created(obj: KubeObject, now: number): string {
  return age(asRecord(obj.metadata).creationTimestamp, now);
}

function bindingPrinter(what: string): Printer {
  return {
    columns: [
      NAME_COLUMN,
      column('Role', 'string', 'Referenced role, as Kind/name.'),
      AGE_COLUMN,
      column('Users', 'string', `Users bound by the ${what}.`, 1),
      column('Groups', 'string', `Groups bound by the ${what}.`, 1),
      column('ServiceAccounts', 'string', `Service accounts bound by the ${what}, as namespace/name.`, 1),
    ],
    print(obj, now) {
      const users: string[] = [];
      const groups: string[] = [];
      const sas: string[] = [];
      for (const s of asArray(obj.subjects)) {
        if (s.kind === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
        else if (s.kind === 'User') users.push(str(s.name));
        else if (s.kind === 'Group') groups.push(str(s.name));
      }
      const ref = asRecord(obj.roleRef);
      return {
        cells: [name(obj), `${str(ref.kind)}/${str(ref.name)}`, created(obj, now), users.join(', '), groups.join(', '), sas.join(', ')],
      };
    },
  };
}

export const roleBindingPrinter = bindingPrinter('roleBinding');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding');

export const leasePrinter: Printer = {
  columns: [NAME_COLUMN, column('Holder', 'string', 'Identity of the current lease holder.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), str(asRecord(obj.spec).holderIdentity), created(obj, now)] }),
};

/** IntOrString rendered as Go's IntOrString.String(). */
function intOrString(value: unknown): string {
  return typeof value === 'number' ? String(Math.trunc(value)) : str(value);
}

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'Pods that must stay available (number or percentage).'),
    column('Max Unavailable', 'string', 'Pods that may be unavailable (number or percentage).'),
    column('Allowed Disruptions', 'integer', 'Pod disruptions currently allowed.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const min = spec.minAvailable !== undefined && spec.minAvailable !== null ? intOrString(spec.minAvailable) : 'N/A';
    const max = spec.maxUnavailable !== undefined && spec.maxUnavailable !== null ? intOrString(spec.maxUnavailable) : 'N/A';
    return { cells: [name(obj), min, max, int(asRecord(obj.status).disruptionsAllowed), created(obj, now)] };
  },
};

export const priorityClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Value', 'integer', 'Priority of pods using this class.'),
    column('Global-Default', 'boolean', 'Whether pods without a class get this one.'),
    AGE_COLUMN,
  ],
  print: (obj, now) => ({ cells: [name(obj), int(obj.value), obj.globalDefault === true, created(obj, now)] }),
};

function isDefaultClass(obj: KubeObject): boolean {
  const annotations = asRecord(asRecord(obj.metadata).annotations);
  return (
    annotations['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  );
}

export const storageClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', 'Volume plugin that provisions volumes of this class.'),
    column('ReclaimPolicy', 'string', 'Reclaim policy given to provisioned volumes.'),
    column('VolumeBindingMode', 'string', 'When volumes are bound: Immediate or WaitForFirstConsumer.'),
    column('AllowVolumeExpansion', 'string', 'Whether claims of this class may grow.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    return {
      cells: [
        name(obj) + (isDefaultClass(obj) ? ' (default)' : ''),
        str(obj.provisioner),
        str(obj.reclaimPolicy) || 'Delete',
        str(obj.volumeBindingMode) || 'Immediate',
        obj.allowVolumeExpansion === true,
        created(obj, now),
      ],
    };
  },
};

export const webhookConfigurationPrinter: Printer = {
  columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Number of webhooks in the configuration.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), asArray(obj.webhooks).length, created(obj, now)] }),
};

export const runtimeClassPrinter: Printer = {
  columns: [NAME_COLUMN, column('Handler', 'string', 'Container runtime handler for this class.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), str(obj.handler), created(obj, now)] }),
};

export const controllerRevisionPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Owning controller, as kind.group/name.'),
    column('Revision', 'string', 'Revision number.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const owner = asArray(asRecord(obj.metadata).ownerReferences).find((r) => r.controller === true);
    let controller = '<none>';
    if (owner) {
      const apiVersion = str(owner.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = str(owner.kind);
      // formatResourceName prints the bare name when the group kind is empty.
      controller = kind === '' && group === '' ? str(owner.name) : `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${str(owner.name)}`;
    }
    return { cells: [name(obj), controller, int(obj.revision), created(obj, now)] };
  },
};
