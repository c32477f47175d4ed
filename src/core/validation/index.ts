// Validation and defaulting for built-in kinds, as kube-apiserver v1.23 does it. The registry
// calls, per write: prepareForUpdate (updates), defaults, allocateServiceAddresses (Services),
// validateObjectMeta[/Update] and the kind's validateCreate/validateUpdate. Which rules and which
// name rule a kind has is in its spec (../kinds/).

export type { KindRules } from './kind-rules';
export type { NameRule } from './names';
export { validateObjectMeta, validateObjectMetaUpdate, validateLabels, validateAnnotations, validateLabelSelector, selectorMatches, type ObjectMetaOptions } from './meta';
export {
  isDNS1123Subdomain,
  isDNS1123Label,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  isConfigMapKey,
  isValidPortName,
  isValidPortNum,
  isValidPathSegmentName,
  validateName,
} from './names';
export {
  ClusterIpAllocator,
  NodePortAllocator,
  KUBERNETES_SERVICE_IP,
  allocateServiceAddresses,
  releaseServiceAddresses,
  reserveServiceAddresses,
  type ServiceAllocators,
  type AllocationResult,
} from './cluster-ip';
export { parseQuantity, formatQuantity, compareQuantity, canonicalQuantity, canonicalQuantityIfValid, QUANTITY_REGEX_ERROR, type Quantity } from './quantity';
export { podQOSClass } from './pod-defaults';
export { cronScheduleError } from './cron';
export { SYSTEM_PRIORITY_CLASSES } from './scheduling';
