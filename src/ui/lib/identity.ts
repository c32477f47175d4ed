// Who the page acts as. By default the page is the playground's admin (system:masters); a chosen
// identity is sent as impersonation headers on every request, exactly what `kubectl --as` and
// `--as-group` send, so a learner can "be" alice and see what alice may do.
export interface Identity {
  user: string;
  groups: string[];
}

export const IMPERSONATE_USER = 'Impersonate-User';
export const IMPERSONATE_GROUP = 'Impersonate-Group';

/** `dev, ops ,,dev` → ['dev', 'ops']: comma separated, trimmed, empty and repeated names dropped. */
export function parseGroups(text: string): string[] {
  return [...new Set(text.split(',').map((g) => g.trim()).filter(Boolean))];
}

/** An identity from the form's fields; undefined (the admin) when no user name is given. */
export function identityFrom(user: string, groups: string): Identity | undefined {
  const name = user.trim();
  return name ? { user: name, groups: parseGroups(groups) } : undefined;
}

/**
 * The headers for an identity ({} for the admin). Groups travel in one header joined by ", ",
 * as a browser joins repeated headers anyway; the server splits them back.
 */
export function impersonationHeaders(identity: Identity | undefined): Record<string, string> {
  if (!identity) return {};
  const headers: Record<string, string> = { [IMPERSONATE_USER]: identity.user };
  if (identity.groups.length) headers[IMPERSONATE_GROUP] = identity.groups.join(', ');
  return headers;
}

/** kubectl's flags for the impersonation headers among `headers` (any case), in kubectl's order. */
export function impersonationFlags(headers: Readonly<Record<string, string>> | undefined): string[] {
  const find = (name: string) => Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const user = find(IMPERSONATE_USER);
  if (user === undefined) return [];
  const groups = (find(IMPERSONATE_GROUP) ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  return [`--as=${user}`, ...groups.map((g) => `--as-group=${g}`)];
}

/** How the header shows who the page is. */
export function describeIdentity(identity: Identity | undefined): string {
  if (!identity) return 'admin (system:masters)';
  return identity.groups.length ? `${identity.user} (groups: ${identity.groups.join(', ')})` : identity.user;
}

const STORAGE_KEY = 'kube-playground.identity';

/** The identity kept for this tab (sessionStorage), so a reload keeps being alice. */
export function loadIdentity(storage: Pick<Storage, 'getItem'> | undefined): Identity | undefined {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Identity>;
    if (typeof parsed.user !== 'string' || !parsed.user) return undefined;
    return { user: parsed.user, groups: Array.isArray(parsed.groups) ? parsed.groups.filter((g): g is string => typeof g === 'string') : [] };
  } catch {
    return undefined;
  }
}

export function saveIdentity(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, identity: Identity | undefined): void {
  try {
    if (identity) storage?.setItem(STORAGE_KEY, JSON.stringify(identity));
    else storage?.removeItem(STORAGE_KEY);
  } catch {
    // Storage denied (private mode): the identity still holds until the page reloads.
  }
}
