// Who the page acts as, in the header: a user name and groups sent as impersonation headers with
// every request, a visible indicator of the current identity, and one click back to the admin.
// With access control off everyone may do everything (as on kube with AlwaysAllow), which the
// switcher says, so a learner knows why alice is not denied.
import { useState, type FormEvent } from 'react';
import type { AccessControlMode } from '../../hosts/sw/protocol';
import { describeIdentity, identityFrom, type Identity } from '../lib/identity';

export interface IdentitySwitcherProps {
  identity: Identity | undefined;
  onChange(identity: Identity | undefined): void;
  /** Undefined while unknown (or on a host without settings). */
  accessControl: AccessControlMode | undefined;
}

export function IdentitySwitcher({ identity, onChange, accessControl }: IdentitySwitcherProps) {
  const [user, setUser] = useState(identity?.user ?? '');
  const [groups, setGroups] = useState(identity?.groups.join(', ') ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange(identityFrom(user, groups));
  };
  const backToAdmin = () => {
    setUser('');
    setGroups('');
    onChange(undefined);
  };
  return (
    <form className="identity" aria-label="Identity" onSubmit={submit}>
      <span data-testid="identity" className={identity ? 'identity-badge impersonating' : 'identity-badge'} role="status">
        Acting as <strong>{describeIdentity(identity)}</strong>
      </span>
      <input aria-label="User" placeholder="user, e.g. alice" value={user} onChange={(e) => setUser(e.target.value)} size={12} />
      <input aria-label="Groups" placeholder="groups: a, b" value={groups} onChange={(e) => setGroups(e.target.value)} size={14} />
      <button type="submit">Act as</button>
      {identity && (
        <button type="button" onClick={backToAdmin}>
          Back to admin
        </button>
      )}
      {identity && accessControl === 'off' && (
        <small className="hint" data-testid="identity-hint">
          Access control is off: every user may do everything. Turn RBAC on in <a href="#/settings">Settings</a> to see denials.
        </small>
      )}
    </form>
  );
}
