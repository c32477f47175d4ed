// Validation of CustomResourceDefinition objects (the rules people trip over), in the order and
// wording of kube's apiextensions validation: per-version checks, then unique names, then exactly
// one storage version; status.storedVersions must hold the storage version and only known ones.
import type { FieldError } from '../meta/status';
import type { Obj } from '../registry/objects';
import { isDNS1035Label } from '../validation/names';
import { defaultErrors, schemaPaths } from './validate-defaults';

const SCOPES = ['Cluster', 'Namespaced'];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Go prints a []CustomResourceDefinitionVersion value at length; we abbreviate it. */
const VERSIONS_VALUE = '[]apiextensions.CustomResourceDefinitionVersion{...}';
const DEPRECATION_WARNING_MAX = 256;

/** kube's validateDeprecationWarning: only on deprecated versions, short, printable. */
function deprecationWarningErrors(v: Obj): string[] {
  const text = v.deprecationWarning;
  if (v.deprecated !== true && text !== undefined && text !== null) return ['can only be set for deprecated versions'];
  if (typeof text !== 'string') return [];
  const errs: string[] = [];
  // Go's len() counts UTF-8 bytes.
  if (new TextEncoder().encode(text).length > DEPRECATION_WARNING_MAX) errs.push('must be <= 256 characters long');
  if (text.length === 0) errs.push('must not be an empty string');
  let byteIndex = 0;
  for (const ch of text) {
    if (/\p{Cc}/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; control character found at index ${byteIndex}`);
      break;
    }
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += new TextEncoder().encode(ch).length;
  }
  return errs;
}

function versionErrors(versions: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let unique = true;
  let storageCount = 0;
  const schemaAt = schemaPaths(versions);
  const sharedSchemaChecked = new Set<string>();
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (v.storage === true) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    if (!v.name) errs.push({ type: 'FieldValueRequired', field: `${at}.name` });
    else {
      const nameErrs = isDNS1035Label(String(v.name));
      if (nameErrs.length) errs.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: v.name, detail: nameErrs.join(',') });
    }
    for (const detail of deprecationWarningErrors(v)) {
      errs.push({ type: 'FieldValueInvalid', field: `${at}.deprecationWarning`, value: v.deprecationWarning ?? null, detail });
    }
    if (!v.schema?.openAPIV3Schema) errs.push({ type: 'FieldValueRequired', field: `${at}.schema.openAPIV3Schema`, detail: 'schemas are required' });
    else if (!sharedSchemaChecked.has(schemaAt[i]!)) {
      // A schema all versions share is validated (and reported) once, as kube's internal form does.
      sharedSchemaChecked.add(schemaAt[i]!);
      if (v.schema.openAPIV3Schema.type !== 'object') {
        errs.push({ type: 'FieldValueInvalid', field: `${schemaAt[i]}.type`, value: v.schema.openAPIV3Schema.type ?? '', detail: 'must be object at the root' });
      }
      errs.push(...defaultErrors(v.schema.openAPIV3Schema, schemaAt[i]!));
    }
    if (typeof v.served !== 'boolean') errs.push({ type: 'FieldValueRequired', field: `${at}.served` });
  });
  if (!unique) errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', valueText: VERSIONS_VALUE, detail: 'must contain unique version names' });
  if (storageCount !== 1) errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', valueText: VERSIONS_VALUE, detail: 'must have exactly one version marked as storage version' });
  return errs;
}

/**
 * kube's ValidateCustomResourceDefinitionStoredVersions. Only checked once a status exists: our
 * create stores the CRD first and records storedVersions in the establishing status write.
 */
export function storedVersionsErrors(crd: Obj): FieldError[] {
  const stored = crd.status?.storedVersions;
  if (stored === undefined) return [];
  const field = 'status.storedVersions';
  if (!Array.isArray(stored) || stored.length === 0) return [{ type: 'FieldValueInvalid', field, valueText: '[]string(nil)', detail: 'must have at least one stored version' }];
  const errs: FieldError[] = [];
  const pending = new Map<string, number>();
  stored.forEach((v: string, i: number) => pending.set(v, i));
  for (const v of (crd.spec?.versions ?? []) as Obj[]) {
    if (v.storage === true && !pending.has(v.name)) {
      errs.push({ type: 'FieldValueInvalid', field, valueText: `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name)}, ...}`, detail: `must have the storage version ${v.name}` });
    }
    pending.delete(v.name);
  }
  for (const [v, i] of pending) errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: v, detail: 'must appear in spec.versions' });
  return errs;
}

export function validateCrd(crd: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  // Object metadata comes first, as in kube.
  if (spec.group && names.plural && crd.metadata?.name !== `${names.plural}.${spec.group}`) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: crd.metadata?.name, detail: 'must be spec.names.plural+"."+spec.group' });
  }
  if (!spec.group) errs.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!String(spec.group).includes('.')) errs.push({ type: 'FieldValueInvalid', field: 'spec.group', value: spec.group, detail: 'should be a domain with at least one dot' });
  if (!SCOPES.includes(spec.scope)) {
    if (!spec.scope) errs.push({ type: 'FieldValueRequired', field: 'spec.scope' });
    else errs.push({ type: 'FieldValueNotSupported', field: 'spec.scope', value: spec.scope, supported: SCOPES });
  }
  const versions: Obj[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', valueText: '[]apiextensions.CustomResourceDefinitionVersion(nil)', detail: 'must have exactly one version marked as storage version' });
  else errs.push(...versionErrors(versions));
  if (!names.plural) errs.push({ type: 'FieldValueRequired', field: 'spec.names.plural' });
  else if (!DNS_LABEL.test(names.plural)) errs.push({ type: 'FieldValueInvalid', field: 'spec.names.plural', value: names.plural, detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')" });
  if (!names.kind) errs.push({ type: 'FieldValueRequired', field: 'spec.names.kind' });
  if (names.singular && !DNS_LABEL.test(names.singular)) errs.push({ type: 'FieldValueInvalid', field: 'spec.names.singular', value: names.singular, detail: 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'' });
  errs.push(...storedVersionsErrors(crd));
  return errs;
}
