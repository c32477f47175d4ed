// Validation of CustomResourceDefinition objects (the rules people trip over).
import type { FieldError } from '../../server/status';
import type { Obj } from '../objects';

const SCOPES = ['Cluster', 'Namespaced'];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function validateCrd(crd: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  if (!spec.group) errs.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!String(spec.group).includes('.')) errs.push({ type: 'FieldValueInvalid', field: 'spec.group', value: spec.group, detail: 'should be a domain with at least one dot' });
  if (!names.plural) errs.push({ type: 'FieldValueRequired', field: 'spec.names.plural' });
  else if (!DNS_LABEL.test(names.plural)) errs.push({ type: 'FieldValueInvalid', field: 'spec.names.plural', value: names.plural, detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')" });
  if (!names.kind) errs.push({ type: 'FieldValueRequired', field: 'spec.names.kind' });
  if (names.singular && !DNS_LABEL.test(names.singular)) errs.push({ type: 'FieldValueInvalid', field: 'spec.names.singular', value: names.singular, detail: 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'' });
  if (!SCOPES.includes(spec.scope)) {
    if (!spec.scope) errs.push({ type: 'FieldValueRequired', field: 'spec.scope' });
    else errs.push({ type: 'FieldValueNotSupported', field: 'spec.scope', value: spec.scope, supported: SCOPES });
  }
  if (spec.group && names.plural && crd.metadata?.name !== `${names.plural}.${spec.group}`) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: crd.metadata?.name, detail: 'must be spec.names.plural+"."+spec.group' });
  }
  const versions: Obj[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', valueText: '[]apiextensions.CustomResourceDefinitionVersion(nil)', detail: 'must have exactly one version marked as storage version' });
  else if (versions.filter((v) => v.storage).length !== 1) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', valueText: '[]apiextensions.CustomResourceDefinitionVersion{...}', detail: 'must have exactly one version marked as storage version' });
  }
  versions.forEach((v, i) => {
    if (!v.name) errs.push({ type: 'FieldValueRequired', field: `spec.versions[${i}].name` });
    else if (!DNS_LABEL.test(v.name)) errs.push({ type: 'FieldValueInvalid', field: `spec.versions[${i}].name`, value: v.name, detail: 'must be a DNS-1035 label' });
    if (!v.schema?.openAPIV3Schema) errs.push({ type: 'FieldValueRequired', field: `spec.versions[${i}].schema.openAPIV3Schema`, detail: 'schemas are required' });
    else if (v.schema.openAPIV3Schema.type !== 'object') {
      errs.push({ type: 'FieldValueInvalid', field: `spec.versions[${i}].schema.openAPIV3Schema.type`, value: v.schema.openAPIV3Schema.type ?? '', detail: 'must be object at the root' });
    }
    if (typeof v.served !== 'boolean') errs.push({ type: 'FieldValueRequired', field: `spec.versions[${i}].served` });
  });
  return errs;
}
