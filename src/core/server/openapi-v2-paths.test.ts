import { describe, expect, it } from 'vitest';
import { parseAccept } from './openapi-v2-endpoint';
import { operationTag, toV2Paths } from './openapi-v2-paths';

describe('operationTag (kube GetOperationIDAndTags)', () => {
  it('names core, built-in and custom groups as kube tags them', () => {
    expect(operationTag('/api/v1/namespaces/{namespace}/pods')).toBe('core_v1');
    expect(operationTag('/apis/apps/v1/deployments')).toBe('apps_v1');
    expect(operationTag('/apis/rbac.authorization.k8s.io/v1/roles')).toBe('rbacAuthorization_v1');
    expect(operationTag('/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas')).toBe('flowcontrolApiserver_v1beta2');
    expect(operationTag('/apis/cert-manager.io/v1/certificates')).toBe('certManagerIo_v1');
  });
});

describe('toV2Paths', () => {
  it('moves the request body into a body parameter, drops parameters v1.23 does not list, sorts the rest', () => {
    const v3 = {
      '/apis/example.com/v1/namespaces/{namespace}/widgets': {
        post: {
          operationId: 'createExampleComV1NamespacedWidget',
          parameters: [
            { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
            { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
            { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          ],
          requestBody: { content: { '*/*': { schema: { $ref: '#/definitions/com.example.v1.Widget' } } }, required: true },
          responses: { '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/definitions/com.example.v1.Widget' } }, 'application/yaml': {} } }, '401': { description: 'Unauthorized' } },
          'x-kubernetes-action': 'post',
          'x-kubernetes-group-version-kind': { group: 'example.com', version: 'v1', kind: 'Widget' },
        },
        parameters: [
          { name: 'pretty', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'namespace', in: 'path', required: true, schema: { type: 'string', uniqueItems: true } },
        ],
      },
    };
    const v2 = toV2Paths(v3, true);
    expect(Object.keys((v2['/apis/example.com/v1/namespaces/{namespace}/widgets'].post as Record<string, object>)['x-kubernetes-group-version-kind'])).toEqual(['group', 'kind', 'version']);
    expect(v2).toEqual({
      '/apis/example.com/v1/namespaces/{namespace}/widgets': {
        post: {
          consumes: ['application/json', 'application/yaml'],
          produces: ['application/json', 'application/yaml'],
          schemes: ['https'],
          tags: ['exampleCom_v1'],
          operationId: 'createExampleComV1NamespacedWidget',
          parameters: [
            { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/com.example.v1.Widget' } },
            { uniqueItems: true, type: 'string', name: 'dryRun', in: 'query' },
            { uniqueItems: true, type: 'string', name: 'fieldManager', in: 'query' },
          ],
          responses: { '201': { description: 'Created', schema: { $ref: '#/definitions/com.example.v1.Widget' } }, '401': { description: 'Unauthorized' } },
          'x-kubernetes-action': 'post',
          'x-kubernetes-group-version-kind': { group: 'example.com', kind: 'Widget', version: 'v1' },
        },
        parameters: [
          { uniqueItems: true, type: 'string', name: 'namespace', in: 'path', required: true },
          { uniqueItems: true, type: 'string', name: 'pretty', in: 'query' },
        ],
      },
    });
  });
});

describe('parseAccept (goautoneg)', () => {
  it('orders by q, then concrete before wildcard, and keeps q=0 clauses', () => {
    const order = parseAccept('*/*;q=0.8, application/json;q=0.9, text/*, application/x;q=0').map((c) => `${c.type}/${c.subType};${c.q}`);
    expect(order).toEqual(['text/*;1', 'application/json;0.9', '*/*;0.8', 'application/x;0']);
    expect(parseAccept('*').map((c) => `${c.type}/${c.subType}`)).toEqual(['*/*']);
    expect(parseAccept('garbage, a/b/c')).toEqual([]);
  });
});
