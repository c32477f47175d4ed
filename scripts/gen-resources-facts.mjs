// Facts about kube-apiserver v1.23 that its OpenAPI data does not carry (served group/versions,
// short names, categories, storage versions, ...), used by gen-resources.mjs.

/** Group/versions kube-apiserver v1.23 serves by default (group '' = core). */
export const SERVED_GVS = [
  ['', 'v1'],
  ['admissionregistration.k8s.io', 'v1'],
  ['apiextensions.k8s.io', 'v1'],
  ['apiregistration.k8s.io', 'v1'],
  ['apps', 'v1'],
  ['authentication.k8s.io', 'v1'],
  ['authorization.k8s.io', 'v1'],
  ['autoscaling', 'v1'],
  ['autoscaling', 'v2'],
  ['autoscaling', 'v2beta1'],
  ['autoscaling', 'v2beta2'],
  ['batch', 'v1'],
  ['batch', 'v1beta1'],
  ['certificates.k8s.io', 'v1'],
  ['coordination.k8s.io', 'v1'],
  ['discovery.k8s.io', 'v1'],
  ['discovery.k8s.io', 'v1beta1'],
  ['events.k8s.io', 'v1'],
  ['events.k8s.io', 'v1beta1'],
  ['flowcontrol.apiserver.k8s.io', 'v1beta1'],
  ['flowcontrol.apiserver.k8s.io', 'v1beta2'],
  ['networking.k8s.io', 'v1'],
  ['node.k8s.io', 'v1'],
  ['node.k8s.io', 'v1beta1'],
  ['policy', 'v1'],
  ['policy', 'v1beta1'],
  ['rbac.authorization.k8s.io', 'v1'],
  ['scheduling.k8s.io', 'v1'],
  ['storage.k8s.io', 'v1'],
  ['storage.k8s.io', 'v1beta1'],
];

/**
 * Group/versions v1.28 no longer serves: the kinds v1.23 served there (types come from the v1.21.2
 * definitions) and the v1.28 group/version whose paths have the same resource shape (plural,
 * scope, verbs, subresources). A kind without a template needs an entry in NO_TEMPLATE_RESOURCES.
 */
export const REMOVED_GVS = {
  'autoscaling/v2beta1': { kinds: ['HorizontalPodAutoscaler'], template: 'autoscaling/v2' },
  'autoscaling/v2beta2': { kinds: ['HorizontalPodAutoscaler'], template: 'autoscaling/v2' },
  'batch/v1beta1': { kinds: ['CronJob'], template: 'batch/v1' },
  'discovery.k8s.io/v1beta1': { kinds: ['EndpointSlice'], template: 'discovery.k8s.io/v1' },
  'events.k8s.io/v1beta1': { kinds: ['Event'], template: 'events.k8s.io/v1' },
  'flowcontrol.apiserver.k8s.io/v1beta1': {
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    template: 'flowcontrol.apiserver.k8s.io/v1beta2',
  },
  'node.k8s.io/v1beta1': { kinds: ['RuntimeClass'], template: 'node.k8s.io/v1' },
  'policy/v1beta1': { kinds: ['PodDisruptionBudget', 'PodSecurityPolicy'], template: 'policy/v1' },
  // v1.23 served only CSIStorageCapacity in storage.k8s.io/v1beta1 (the others were removed in 1.22).
  'storage.k8s.io/v1beta1': { kinds: ['CSIStorageCapacity'], template: 'storage.k8s.io/v1' },
};

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Resources of removed group/versions with no v1.28 counterpart at all. */
export const NO_TEMPLATE_RESOURCES = {
  'policy/v1beta1/PodSecurityPolicy': { resource: 'podsecuritypolicies', namespaced: false, verbs: ALL_VERBS, subresources: [] },
};

/** Resources v1.28 serves in a v1.23 group/version that v1.23 did not serve there. */
export const NOT_IN_V1_23 = new Set(['storage.k8s.io/v1/csistoragecapacities']);

/** Verbs v1.28 added to a resource after v1.23 (services gained deletecollection later). */
export const VERBS_ADDED_LATER = { 'v1/services': ['deletecollection'] };

/** Newer than v1.23 but served anyway: kubectl 1.34 `auth whoami` posts it. */
export const KEEP_NEWER = new Set(['authentication.k8s.io/v1/selfsubjectreviews']);

/** Review resources: POST only, answered but never stored. */
export const VIRTUAL_RESOURCES = new Set([
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
]);

/** shortNames and categories of v1.23, keyed by group/resource (core group = ''). */
export const DISCOVERY_NAMES = {
  '/pods': { shortNames: ['po'], categories: ['all'] },
  '/services': { shortNames: ['svc'], categories: ['all'] },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ['all'] },
  '/configmaps': { shortNames: ['cm'] },
  '/namespaces': { shortNames: ['ns'] },
  '/nodes': { shortNames: ['no'] },
  '/persistentvolumeclaims': { shortNames: ['pvc'] },
  '/persistentvolumes': { shortNames: ['pv'] },
  '/serviceaccounts': { shortNames: ['sa'] },
  '/endpoints': { shortNames: ['ep'] },
  '/events': { shortNames: ['ev'] },
  '/limitranges': { shortNames: ['limits'] },
  '/resourcequotas': { shortNames: ['quota'] },
  '/componentstatuses': { shortNames: ['cs'] },
  'apps/deployments': { shortNames: ['deploy'], categories: ['all'] },
  'apps/replicasets': { shortNames: ['rs'], categories: ['all'] },
  'apps/statefulsets': { shortNames: ['sts'], categories: ['all'] },
  'apps/daemonsets': { shortNames: ['ds'], categories: ['all'] },
  'batch/jobs': { categories: ['all'] },
  'batch/cronjobs': { shortNames: ['cj'], categories: ['all'] },
  'autoscaling/horizontalpodautoscalers': { shortNames: ['hpa'], categories: ['all'] },
  'networking.k8s.io/ingresses': { shortNames: ['ing'] },
  'networking.k8s.io/networkpolicies': { shortNames: ['netpol'] },
  'policy/poddisruptionbudgets': { shortNames: ['pdb'] },
  'policy/podsecuritypolicies': { shortNames: ['psp'] },
  'apiextensions.k8s.io/customresourcedefinitions': { shortNames: ['crd', 'crds'], categories: ['api-extensions'] },
  'apiregistration.k8s.io/apiservices': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': { categories: ['api-extensions'] },
  'scheduling.k8s.io/priorityclasses': { shortNames: ['pc'] },
  'storage.k8s.io/storageclasses': { shortNames: ['sc'] },
  'certificates.k8s.io/certificatesigningrequests': { shortNames: ['csr'] },
  'events.k8s.io/events': { shortNames: ['ev'] },
};

/**
 * Resources served in several versions share one storage; v1.23 stored them in this group/version
 * (the version the previous release could also read). Core group/version is written `v1`.
 */
export const STORAGE_VERSIONS = {
  'autoscaling/horizontalpodautoscalers': 'autoscaling/v1',
  'batch/cronjobs': 'batch/v1',
  'discovery.k8s.io/endpointslices': 'discovery.k8s.io/v1',
  // events.k8s.io events are the core events, stored as core v1.
  'events.k8s.io/events': 'v1',
  'flowcontrol.apiserver.k8s.io/flowschemas': 'flowcontrol.apiserver.k8s.io/v1beta1',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': 'flowcontrol.apiserver.k8s.io/v1beta1',
  'node.k8s.io/runtimeclasses': 'node.k8s.io/v1',
  'policy/poddisruptionbudgets': 'policy/v1',
};

/** Meta types every document needs besides the served kinds' closure. */
export const EXTRA_DEFINITIONS = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions',
  'io.k8s.api.autoscaling.v1.Scale',
];

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const metaRef = (name) => ({ $ref: `#/definitions/${META}${name}` });
export const metaGvks = (kind) => ['v1', 'v1beta1'].map((version) => ({ group: 'meta.k8s.io', kind, version }));

/**
 * meta.k8s.io types the server answers (Accept `as=Table`, `as=PartialObjectMetadata[List]`) but
 * OpenAPI does not publish; written here from their Go field lists.
 */
export const SYNTHETIC_DEFINITIONS = {
  [`${META}Table`]: {
    type: 'object',
    required: ['columnDefinitions', 'rows'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: metaRef('ListMeta'),
      columnDefinitions: { type: 'array', items: metaRef('TableColumnDefinition'), 'x-kubernetes-list-type': 'atomic' },
      rows: { type: 'array', items: metaRef('TableRow'), 'x-kubernetes-list-type': 'atomic' },
    },
    'x-kubernetes-group-version-kind': metaGvks('Table'),
  },
  [`${META}TableColumnDefinition`]: {
    type: 'object',
    required: ['name', 'type', 'format', 'description', 'priority'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string' },
      format: { type: 'string' },
      description: { type: 'string' },
      priority: { type: 'integer', format: 'int32' },
    },
  },
  [`${META}TableRow`]: {
    type: 'object',
    required: ['cells'],
    properties: {
      cells: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'atomic' },
      conditions: { type: 'array', items: metaRef('TableRowCondition'), 'x-kubernetes-list-type': 'atomic' },
      object: { type: 'object' },
    },
  },
  [`${META}TableRowCondition`]: {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string' },
      status: { type: 'string' },
      reason: { type: 'string' },
      message: { type: 'string' },
    },
  },
  [`${META}PartialObjectMetadata`]: {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: metaRef('ObjectMeta') },
    'x-kubernetes-group-version-kind': metaGvks('PartialObjectMetadata'),
  },
  [`${META}PartialObjectMetadataList`]: {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: metaRef('ListMeta'),
      items: { type: 'array', items: metaRef('PartialObjectMetadata') },
    },
    'x-kubernetes-group-version-kind': metaGvks('PartialObjectMetadataList'),
  },
};
EXTRA_DEFINITIONS.push(`${META}Table`, `${META}PartialObjectMetadataList`);

/**
 * Properties whose names are also OpenAPI schema keywords (`description`, `default`, `format`,
 * ...). A copy of the OpenAPI data once lost the `description` properties when its prose
 * `description`s were stripped, and every real CRD then failed strict decoding; the generator
 * refuses data that lacks any of these, so a property cannot vanish that way again.
 */
const JSON_SCHEMA_PROPS_KEYWORDS = [
  '$ref', '$schema', 'additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'default', 'definitions',
  'dependencies', 'description', 'enum', 'example', 'exclusiveMaximum', 'exclusiveMinimum', 'externalDocs',
  'format', 'id', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength',
  'minProperties', 'minimum', 'multipleOf', 'not', 'nullable', 'oneOf', 'pattern', 'patternProperties',
  'properties', 'required', 'title', 'type', 'uniqueItems',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
];
export const KEYWORD_NAMED_PROPERTIES = {
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': JSON_SCHEMA_PROPS_KEYWORDS,
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition': ['description', 'format', 'type'],
  'io.k8s.api.scheduling.v1.PriorityClass': ['description'],
  'io.k8s.api.core.v1.LimitRangeItem': ['default', 'type'],
  'io.k8s.api.core.v1.VolumeNodeAffinity': ['required'],
  [`${META}TableColumnDefinition`]: ['description', 'format', 'type'],
};
