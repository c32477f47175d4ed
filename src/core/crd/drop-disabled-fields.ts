// kube's CRD strategy drops `x-kubernetes-validations` (CEL rules, alpha in v1.23 behind the
// CustomResourceValidationExpressions gate, off by default) from a CRD's schemas on create, and
// on update unless the stored CRD already uses them. The walk covers exactly the places upstream's
// dropXValidationsField visits: properties, additionalProperties, items (one schema or a list)
// and dependencies; rules under allOf/anyOf/oneOf/not are left as they are, as upstream does.
import type { Obj } from '../registry/objects';

const RULES = 'x-kubernetes-validations';

function isSchema(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function dropRules(schema: unknown): void {
  if (!isSchema(schema)) return;
  delete schema[RULES];
  dropRules(schema.additionalProperties);
  if (isSchema(schema.properties)) for (const key of Object.keys(schema.properties)) dropRules(schema.properties[key]);
  if (Array.isArray(schema.items)) schema.items.forEach(dropRules);
  else dropRules(schema.items);
  // dependencies map to a schema or to a list of property names; only schemas are walked.
  if (isSchema(schema.dependencies)) for (const key of Object.keys(schema.dependencies)) dropRules(schema.dependencies[key]);
}

/** Whether a schema uses validation rules anywhere (upstream's SchemaHas walks every sub-schema). */
function hasRules(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasRules);
  if (!isSchema(schema)) return false;
  if (schema[RULES] !== undefined && schema[RULES] !== null) return true;
  for (const key of ['properties', 'patternProperties', 'definitions', 'dependencies'] as const) {
    const map = schema[key];
    if (isSchema(map) && Object.keys(map).some((k) => hasRules(map[k]))) return true;
  }
  return ['items', 'additionalProperties', 'additionalItems', 'not', 'allOf', 'anyOf', 'oneOf'].some((k) => hasRules(schema[k]));
}

function versionSchemas(crd: Obj): unknown[] {
  const versions: unknown = crd.spec?.versions;
  if (!Array.isArray(versions)) return [];
  return versions.map((v) => (isSchema(v) && isSchema(v.schema) ? v.schema.openAPIV3Schema : undefined));
}

/** PrepareForCreate / PrepareForUpdate's dropDisabledFields, with the gate's state given. */
export function dropDisabledCrdFields(next: Obj, old: Obj | undefined, validationExpressions: boolean): void {
  if (validationExpressions) return;
  if (old && versionSchemas(old).some(hasRules)) return;
  for (const schema of versionSchemas(next)) dropRules(schema);
}
