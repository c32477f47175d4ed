// The authenticated caller, as every layer names it (RBAC, admission, audit).
/** The authenticated caller (k8s.io/apiserver/pkg/authentication/user.Info). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}
