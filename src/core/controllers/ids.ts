// Stable made-up identifiers for simulated machines and containers: the same input always gives
// the same hex, so a test can predict them and a restart does not invent new ones.

/** `bytes`*2 hex digits derived from `seed` (FNV-1a, stretched). */
export function hexId(seed: string, bytes = 32): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < bytes * 2; round++) {
    for (const ch of `${seed}#${round}`) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, bytes * 2);
}

/** A UUID-shaped id (machine's systemUUID, boot id). */
export function uuidLike(seed: string): string {
  const h = hexId(seed, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A container image as the container runtime reports it: `nginx` → `docker.io/library/nginx:latest`. */
export function normalizedImage(image: string): string {
  let name = image;
  const firstSlash = name.indexOf('/');
  const first = firstSlash < 0 ? '' : name.slice(0, firstSlash);
  if (firstSlash < 0 || !(first.includes('.') || first.includes(':') || first === 'localhost')) {
    name = `docker.io/${firstSlash < 0 ? 'library/' : ''}${name}`;
  }
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  if (!lastSegment.includes(':') && !name.includes('@')) name += ':latest';
  return name;
}

/** The image digest reference the runtime reports as imageID. */
export function imageId(image: string): string {
  const normalized = normalizedImage(image);
  const repo = normalized.includes('@') ? normalized.slice(0, normalized.indexOf('@')) : normalized.replace(/:[^:/]+$/, '');
  return `${repo}@sha256:${hexId(normalized)}`;
}
