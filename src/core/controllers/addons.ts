// The cluster's add-ons: objects the playground installs at start as a cluster's add-on manager
// (or kind, or an administrator applying a manifest) would, not as any controller. They are
// created when missing and never put back, and labelled as the add-on manager labels what it
// only creates, so the page's export leaves them out (a fresh cluster makes them again).
import type { Identity } from './client';

/** The add-on installer: an administrator's write (RBAC does not apply to system:masters). */
export const ADDON_INSTALLER: Identity = { username: 'kube-playground:addons', groups: ['system:masters', 'system:authenticated'], fieldManager: 'kube-playground-addons' };

/** addonmanager.kubernetes.io/mode EnsureExists: made once, then the cluster's users own it. */
export const ENSURE_EXISTS = { 'addonmanager.kubernetes.io/mode': 'EnsureExists' } as const;
