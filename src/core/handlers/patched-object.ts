// A patch's result is decoded like a request body: kube-apiserver turns the patched JSON back into
// the kind's Go struct (or prunes it against the CRD's schema), so a patch cannot store a value of
// the wrong type or a field the kind does not have. What goes wrong is reported on the patch:
//   "" is invalid: patch: Invalid value: "<patched object>": json: cannot unmarshal ...
//   "" is invalid: patch: Invalid value: "<patched object>": strict decoding error: unknown field "x"
// (422, no kind or name), the second only with fieldValidation=Strict; Warn turns unknown fields
// into warnings, Ignore drops them silently. (For a strategic merge patch kube prints the patch
// instead of the patched object, in Go's map syntax, and words type errors as its converter does;
// we print the patched object and Go's decoder wording for every patch type.)
import type { RequestContext } from './context';
import { invalid } from '../meta/status';
import { applyDirective, checkFields } from '../validation/fieldvalidation/strict';
import { customMetadataTypeError, GoTypeChecker } from '../validation/fieldvalidation/go-types';
import { fieldValidationDirective, schemaContext } from './body';
import { clone } from '../registry/objects';
import { goJson } from '../fieldmanager/value';

function patchInvalid(patched: unknown, detail: string): never {
  throw invalid('', '', '', [{ type: 'FieldValueInvalid', field: 'patch', value: goJson(patched), detail }]);
}

/**
 * Returns a decoder for this request's patch results: it checks the result and gives it back as
 * it will be stored (unknown fields dropped). Warnings go to the request once, however many
 * times a conflict retry runs the patch again.
 */
export function patchedObjectDecoder(rc: RequestContext): (patched: unknown) => unknown {
  const directive = fieldValidationDirective(rc);
  const ctx = schemaContext(rc);
  if (!ctx) return (patched) => patched;
  const types = ctx.custom ? undefined : new GoTypeChecker(ctx);
  return (patched) => {
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) return patched;
    const typeError = types ? types.firstError(patched) : customMetadataTypeError(ctx.definitions, patched);
    if (typeError) patchInvalid(patched, typeError);
    const outcome = applyDirective(checkFields({ value: clone(patched) }, ctx), directive);
    if (outcome.error) patchInvalid(patched, outcome.error);
    for (const w of outcome.warnings) if (!rc.warnings.includes(w)) rc.warnings.push(w);
    return outcome.value;
  };
}
