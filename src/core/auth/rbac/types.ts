// RBAC data shapes as the API stores them (rbac.authorization.k8s.io/v1), plus the
// authorizer's request attributes and decision (k8s.io/apiserver/pkg/authorization/authorizer).

import type { UserInfo } from '../../meta/user-info';

export type { UserInfo };

/** A request against a resource: `GET /api/v1/namespaces/default/configmaps/x` → get "" configmaps default x. */
export interface ResourceAttributes {
  kind: 'resource';
  verb: string;
  apiGroup: string;
  /** Kept for the Forbidden details; RBAC itself ignores versions. */
  apiVersion?: string;
  resource: string;
  subresource?: string;
  /** Empty/absent for cluster-scoped requests. */
  namespace?: string;
  /** Empty/absent for create, list, watch, deletecollection. */
  name?: string;
}

/** A request against a path that is not a resource (`/healthz`, `/version`, `/logs`). */
export interface NonResourceAttributes {
  kind: 'nonResource';
  verb: string;
  path: string;
}

export type Attributes = ResourceAttributes | NonResourceAttributes;

export interface Decision {
  allowed: boolean;
  /** `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"` when allowed; usually empty when denied. */
  reason: string;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ObjectMetaLite {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [k: string]: unknown;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface Role {
  apiVersion?: string;
  kind?: 'Role';
  metadata: ObjectMetaLite;
  rules?: PolicyRule[] | null;
}

export interface ClusterRole {
  apiVersion?: string;
  kind?: 'ClusterRole';
  metadata: ObjectMetaLite;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] } | null;
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: 'RoleBinding';
  metadata: ObjectMetaLite;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export interface ClusterRoleBinding {
  apiVersion?: string;
  kind?: 'ClusterRoleBinding';
  metadata: ObjectMetaLite;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** Members of this group pass every check (kube's privileged-group authorizer and escalation bypass). */
export const SYSTEM_MASTERS = 'system:masters';
