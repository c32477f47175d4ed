// ConfigMap and Secret rules (core/validation ValidateConfigMap/ValidateSecret and their updates,
// core/v1 SetDefaults_Secret and the stringData → data conversion), v1.23.
import { decodeBase64, encodeBase64Text } from './base64';
import { type FieldError, forbidden, invalid, key, required, tooLong } from './errors';
import { semanticEqual } from './gofmt';
import type { KindRules } from './kind-rules';
import { utf8Length, validateImmutable } from './meta';
import { isConfigMapKey } from './names';
import { setOwnKey } from '../codec/own-keys';
import { sortInPlace } from '../codec/sort-in-place';

type Obj = Record<string, any>;
export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** A map's keys in Go's map order (sorted), sorted in place: no entry pairs, no copy by Array.sort. */
function sortedKeys(m: Obj): string[] {
  return sortInPlace(Object.keys(m), byCodeUnits);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Decoded length of a base64 []byte value, or an Invalid error when it does not decode. */
function byteValue(raw: unknown, field: string, errs: FieldError[]): number {
  const r = decodeBase64(String(raw ?? ''));
  if (r.error) {
    // Upstream fails decoding the body (400); reported here as a field error on the value.
    errs.push(invalid(field, '<secret contents redacted>', r.error));
    return 0;
  }
  return r.bytes!.length;
}

export function validateConfigMap(cm: Obj): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  const data: Obj = cm.data && typeof cm.data === 'object' ? cm.data : {};
  const bin: Obj = cm.binaryData && typeof cm.binaryData === 'object' ? cm.binaryData : {};
  for (const k of sortedKeys(data)) {
    const v = data[k];
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
    if (Object.hasOwn(bin, k)) errs.push(invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    total += utf8Length(String(v ?? ''));
  }
  for (const k of sortedKeys(bin)) {
    const v = bin[k];
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('binaryData', k), k, m));
    if (Object.hasOwn(data, k)) errs.push(invalid(key('binaryData', k), k, 'duplicate of key present in data'));
    total += byteValue(v, key('binaryData', k), errs);
  }
  // field.NewPath("") prints as `[]`: the error is about the whole object.
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('[]', MAX_SECRET_SIZE));
  return errs;
}

function validateImmutableData(obj: Obj, old: Obj, fields: string[]): FieldError[] {
  if (old?.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
  for (const f of fields) if (!semanticEqual(obj[f], old[f])) errs.push(forbidden(f, IMMUTABLE_WHEN_SET));
  return errs;
}

export const configMapRules: KindRules = {
  validateCreate: validateConfigMap,
  validateUpdate: (cm, old) => [...validateImmutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)],
};

function secretDefaults(secret: Obj): void {
  if (!secret.type) secret.type = 'Opaque';
  if (secret.stringData && typeof secret.stringData === 'object') {
    // stringData is write-only: merged into data (winning over data) and never stored.
    const data: Obj = secret.data && typeof secret.data === 'object' ? secret.data : {};
    for (const [k, v] of Object.entries(secret.stringData as Obj)) setOwnKey(data, k, encodeBase64Text(String(v ?? '')));
    secret.data = data;
  }
  delete secret.stringData;
}

export function validateSecret(secret: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data: Obj = secret.data && typeof secret.data === 'object' ? secret.data : {};
  let total = 0;
  for (const k of sortedKeys(data)) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
    total += byteValue(data[k], key('data', k), errs);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('data', MAX_SECRET_SIZE));
  const has = (k: string) => Object.prototype.hasOwnProperty.call(data, k);
  const jsonOk = (k: string) => {
    const r = decodeBase64(String(data[k] ?? ''));
    if (!r.bytes) return;
    const msg = goJsonObjectError(new TextDecoder().decode(r.bytes));
    if (msg) errs.push(invalid(key('data', k), '<secret contents redacted>', msg));
  };
  switch (secret.type) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata?.annotations?.['kubernetes.io/service-account.name']) {
        errs.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errs.push(required('data[.dockercfg]'));
      else jsonOk('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errs.push(required('data[.dockerconfigjson]'));
      else jsonOk('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      // Upstream builds these paths from the literal "data[%s]" (sic).
      if (!has('username') && !has('password')) {
        errs.push(required('data[%s][username]'));
        errs.push(required('data[%s][password]'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data['ssh-privatekey']) errs.push(required('data[%s][ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(required('data[tls.key]'));
      break;
  }
  return errs;
}

export const secretRules: KindRules = {
  defaults: secretDefaults,
  validateCreate: validateSecret,
  validateUpdate: (s, old) => [
    ...validateImmutable(s.type ?? '', old?.type ?? '', 'type'),
    ...validateImmutableData(s, old, ['data']),
    ...validateSecret(s),
  ],
};

/** What Go's json.Unmarshal into map[string]interface{} says about the text (undefined when fine). */
export function goJsonObjectError(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const t = text.trim();
    if (!t) return 'unexpected end of JSON input';
    const c = t[0];
    if ('{["-0123456789tfn'.includes(c)) return 'unexpected end of JSON input';
    return `invalid character '${c}' looking for beginning of value`;
  }
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const type = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
}
