// allOf / anyOf / oneOf / not of a custom resource schema, as kube-openapi's schemaPropsValidator
// answers them (v1.23). Its composite errors have no field name, so apiextensions turns them into
// `field.Invalid(nil, "", msg)`: printed `<nil>: Invalid value: "": "spec" must validate one and
// only one schema (oneOf). Found none valid`. When no branch passes, the errors of the branch that
// came closest are added as well; kube-openapi picks it by a count of passed checks, here the
// branch with the fewest errors (the first one on a tie, as kube-openapi keeps the first).
import type { FieldError } from '../meta/status';

type Schema = Record<string, any>;
type Validate = (value: unknown, schema: Schema, path: string, errs: FieldError[]) => void;

function composite(detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: '<nil>', value: '', detail };
}

function run(validate: Validate, value: unknown, schema: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  validate(value, schema, path, errs);
  return errs;
}

function closest(results: FieldError[][]): FieldError[] {
  let best = results[0] ?? [];
  for (const r of results) if (r.length < best.length) best = r;
  return best;
}

const branches = (v: unknown): Schema[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'object' && s !== null) : []);

export function validateComposites(value: unknown, schema: Schema, path: string, errs: FieldError[], validate: Validate): void {
  const quoted = JSON.stringify(path);
  const anyOf = branches(schema.anyOf);
  if (anyOf.length) {
    const results = anyOf.map((s) => run(validate, value, s, path));
    if (!results.some((r) => r.length === 0)) errs.push(composite(`${quoted} must validate at least one schema (anyOf)`), ...closest(results));
  }
  const oneOf = branches(schema.oneOf);
  if (oneOf.length) {
    const results = oneOf.map((s) => run(validate, value, s, path));
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      errs.push(composite(`${quoted} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`));
      if (valid === 0) errs.push(...closest(results));
    }
  }
  const allOf = branches(schema.allOf);
  if (allOf.length) {
    const results = allOf.map((s) => run(validate, value, s, path));
    for (const r of results) errs.push(...r);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== allOf.length) errs.push(composite(`${quoted} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  if (schema.not && typeof schema.not === 'object' && run(validate, value, schema.not, path).length === 0) {
    errs.push(composite(`${quoted} must not validate the schema (not)`));
  }
}
