// EndpointSlice discovery.k8s.io/v1beta1 <-> v1 (storage and hub: v1). Only the endpoints
// differ: v1beta1 keeps a free `topology` map, v1 splits it into `zone`, `nodeName` and
// `deprecatedTopology` (facts from pkg/apis/discovery/v1beta1/conversion.go).
import { type JsonObject, arrayAt, isObject } from './json';
import { setOwnKey } from '../codec/own-keys';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

function mapEndpoints(obj: JsonObject, map: (endpoint: JsonObject) => JsonObject): JsonObject {
  const endpoints = arrayAt(obj, 'endpoints');
  if (!endpoints) return obj;
  return { ...obj, endpoints: endpoints.map(map) };
}

/** v1beta1 endpoint -> v1: zone moves to a field; hostname is dropped only when it equals nodeName. */
function endpointToV1(endpoint: JsonObject): JsonObject {
  if (!isObject(endpoint.topology)) return endpoint;
  const rest = { ...(endpoint.topology as Record<string, string>) };
  const zone = rest[ZONE_LABEL];
  delete rest[ZONE_LABEL];
  if (rest[HOSTNAME_LABEL] !== undefined && rest[HOSTNAME_LABEL] === endpoint.nodeName) delete rest[HOSTNAME_LABEL];
  const { topology: _topology, ...others } = endpoint;
  // v1 Endpoint field order: addresses, conditions, hostname, targetRef, deprecatedTopology, nodeName, zone, hints.
  const order = ['addresses', 'conditions', 'hostname', 'targetRef', 'deprecatedTopology', 'nodeName', 'zone', 'hints'];
  const fields: JsonObject = { ...others };
  if (Object.keys(rest).length > 0) fields.deprecatedTopology = rest;
  if (zone !== undefined) fields.zone = zone;
  const out: JsonObject = {};
  for (const key of order) if (fields[key] !== undefined) out[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!Object.hasOwn(out, key)) setOwnKey(out, key, value);
  return out;
}

/** v1 endpoint -> v1beta1: deprecatedTopology, zone and (unless already present) nodeName form `topology`. */
function endpointToV1beta1(endpoint: JsonObject): JsonObject {
  const { deprecatedTopology, zone, ...others } = endpoint;
  if (deprecatedTopology === undefined && zone === undefined && endpoint.nodeName === undefined) return others;
  const topology: Record<string, string> = { ...(isObject(deprecatedTopology) ? (deprecatedTopology as Record<string, string>) : {}) };
  if (typeof zone === 'string') topology[ZONE_LABEL] = zone;
  if (typeof endpoint.nodeName === 'string' && topology[HOSTNAME_LABEL] === undefined) topology[HOSTNAME_LABEL] = endpoint.nodeName;
  // v1beta1 Endpoint field order: addresses, conditions, hostname, targetRef, topology, nodeName, hints.
  const order = ['addresses', 'conditions', 'hostname', 'targetRef', 'topology', 'nodeName', 'hints'];
  const fields: JsonObject = { ...others, topology };
  const out: JsonObject = {};
  for (const key of order) if (fields[key] !== undefined) out[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!Object.hasOwn(out, key)) setOwnKey(out, key, value);
  return out;
}

export function endpointSliceToHub(obj: JsonObject, version: string): JsonObject {
  return version === 'v1' ? obj : mapEndpoints(obj, endpointToV1);
}

export function endpointSliceFromHub(obj: JsonObject, version: string): JsonObject {
  return version === 'v1' ? obj : mapEndpoints(obj, endpointToV1beta1);
}

