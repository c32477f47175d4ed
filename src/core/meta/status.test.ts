import { describe, expect, it } from 'vitest';
import {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  fieldErrorBody,
  forbidden,
  formatFieldValue,
  internalError,
  invalid,
  methodNotAllowed,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  pathNotFound,
  qualifiedResource,
  requestEntityTooLarge,
  statusBody,
  timeoutError,
} from './status';

describe('Status JSON shape', () => {
  it('writes fields in kube-apiserver order: kind, apiVersion, metadata, status, message, reason, details, code', () => {
    const text = statusBody(notFound('apps', 'deployments', 'web'));
    expect(text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"web\\" not found","reason":"NotFound","details":{"name":"web","group":"apps","kind":"deployments"},"code":404}',
    );
  });

  it('leaves the group out of details and message for the core group', () => {
    expect(notFound('', 'configmaps', 'x').toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    });
  });

  it('omits reason when there is none and details when absent', () => {
    const s = new ApiError(500, '', 'resourceVersion should not be set on objects to be created').toStatus();
    expect(Object.keys(s)).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'code']);
    expect(Object.keys(badRequest('bad').toStatus())).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'code']);
  });

  it('words AlreadyExists, Conflict and Forbidden as kube-apiserver', () => {
    expect(alreadyExists('', 'configmaps', 'x').toStatus()).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "x" already exists', details: { name: 'x', kind: 'configmaps' } });
    expect(conflict('apps', 'deployments', 'web', OPTIMISTIC_LOCK_MESSAGE).message).toBe(
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(conflict('', 'configmaps', 'x', 'boom').toStatus()).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(forbidden('', 'configmaps', 'x', 'unable to create new content in namespace t because it is being terminated').toStatus()).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "x" is forbidden: unable to create new content in namespace t because it is being terminated',
      details: { name: 'x', kind: 'configmaps' },
    });
  });

  it('has generic 404 and 405 bodies with empty details', () => {
    expect(pathNotFound().toStatus()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });
    expect(methodNotAllowed().toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });

  it('builds 413, 500 and 504 like apimachinery', () => {
    expect(requestEntityTooLarge('Request entity too large: limit is 3145728').toStatus()).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
    expect(internalError('boom').toStatus()).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: boom', details: { causes: [{ message: 'boom' }] } });
    const t = timeoutError('too slow', 5);
    expect(t.headers).toEqual({ 'Retry-After': '5' });
    expect(t.toStatus()).toMatchObject({ code: 504, reason: 'Timeout', details: { retryAfterSeconds: 5 } });
  });

  it('qualifies resources with their group', () => {
    expect(qualifiedResource('', 'pods')).toBe('pods');
    expect(qualifiedResource('apps', 'deployments')).toBe('deployments.apps');
  });
});

describe('invalid()', () => {
  it('with one cause: the message is that cause, details carry the Kind', () => {
    const s = invalid('', 'Pod', 'p', [{ type: 'FieldValueRequired', field: 'spec.containers[0].image' }]).toStatus();
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Pod "p" is invalid: spec.containers[0].image: Required value',
      reason: 'Invalid',
      details: { name: 'p', kind: 'Pod', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }] },
      code: 422,
    });
    expect(Object.keys((s.details?.causes ?? [])[0])).toEqual(['reason', 'message', 'field']);
  });

  it('with several causes: the message lists them in brackets; the Kind is group-qualified', () => {
    const err = invalid('apps', 'Deployment', 'web', [
      { type: 'FieldValueInvalid', field: 'metadata.name', value: 'Web', detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters" },
      { type: 'FieldValueRequired', field: 'spec.selector' },
    ]);
    expect(err.code).toBe(422);
    expect(err.message).toBe(
      'Deployment.apps "web" is invalid: [metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, spec.selector: Required value]',
    );
    expect(err.details).toEqual({
      name: 'web',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters', field: 'metadata.name' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
      ],
    });
  });
});

describe('field error bodies', () => {
  it('prints values the way Go does', () => {
    expect(formatFieldValue('x')).toBe('"x"');
    expect(formatFieldValue(3)).toBe('3');
    expect(formatFieldValue(true)).toBe('true');
    expect(formatFieldValue(null)).toBe('null');
    expect(formatFieldValue(['a', 'b'])).toBe('[]string{"a", "b"}');
  });

  it('words each error type', () => {
    expect(fieldErrorBody({ type: 'FieldValueRequired', field: 'f' })).toBe('Required value');
    expect(fieldErrorBody({ type: 'FieldValueForbidden', field: 'f', detail: 'may not be set' })).toBe('Forbidden: may not be set');
    expect(fieldErrorBody({ type: 'FieldValueNotSupported', field: 'f', value: 'Sometimes', supported: ['Always', 'Never'] })).toBe(
      'Unsupported value: "Sometimes": supported values: "Always", "Never"',
    );
    expect(fieldErrorBody({ type: 'FieldValueDuplicate', field: 'f', value: 'c' })).toBe('Duplicate value: "c"');
    expect(fieldErrorBody({ type: 'FieldValueInvalid', field: 'f', valueText: '0x0', detail: 'must be specified for an update' })).toBe('Invalid value: 0x0: must be specified for an update');
    expect(fieldErrorBody({ type: 'FieldValueTooLong', field: 'f', detail: 'must have at most 253 bytes' })).toBe('Too long: must have at most 253 bytes');
    expect(fieldErrorBody({ type: 'FieldValueNotFound', field: 'f', value: 'x' })).toBe('Not found: "x"');
  });
});
