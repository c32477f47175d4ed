// ObjectMeta's field names, used for custom resources when the definitions at hand lack the
// real ObjectMeta schema. Nested maps accept any key; nested objects list their fields.
import type { SchemaNode } from './types';

const str: SchemaNode = { type: 'string' };
const map: SchemaNode = { type: 'object', additionalProperties: str };
const free: SchemaNode = {};

export const FALLBACK_OBJECT_META: SchemaNode = {
  type: 'object',
  properties: {
    annotations: map,
    clusterName: str,
    creationTimestamp: str,
    deletionGracePeriodSeconds: { type: 'integer' },
    deletionTimestamp: str,
    finalizers: { type: 'array', items: str },
    generateName: str,
    generation: { type: 'integer' },
    labels: map,
    managedFields: {
      type: 'array',
      items: {
        type: 'object',
        properties: { apiVersion: str, fieldsType: str, fieldsV1: free, manager: str, operation: str, subresource: str, time: str },
      },
    },
    name: str,
    namespace: str,
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        properties: { apiVersion: str, blockOwnerDeletion: { type: 'boolean' }, controller: { type: 'boolean' }, kind: str, name: str, uid: str },
      },
    },
    resourceVersion: str,
    selfLink: str,
    uid: str,
  },
};
