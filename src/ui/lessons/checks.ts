// Small readers the lessons' checks share: who owns a field (from managedFields, as the API wrote
// them), a ConfigMap's data, and requests built the way the lessons send them.
import type { CheckResult, KubeObject, LessonRequest, ManagedFieldsEntry } from './types';

export const NS = 'default';
export const CM = `/api/v1/namespaces/${NS}/configmaps`;
export const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
export const APPLY = 'application/apply-patch+yaml';
export const MERGE = 'application/merge-patch+json';

/** A server-side apply of `yaml` to `path` as `manager`. */
export function apply(path: string, manager: string, yaml: string, force = false): LessonRequest {
  return { method: 'PATCH', path: `${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, contentType: APPLY, body: yaml };
}

export function configMapYaml(name: string, data: Record<string, string>): string {
  const lines = Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${lines.length ? `data:\n${lines.join('\n')}\n` : ''}`;
}

export const remove = (path: string): LessonRequest => ({ method: 'DELETE', path });

/** The managers whose fieldsV1 set contains the path (e.g. ['data', 'color']). */
export function ownersOf(obj: KubeObject | undefined, path: string[]): ManagedFieldsEntry[] {
  return (obj?.metadata?.managedFields ?? []).filter((e) => {
    let node: unknown = e.fieldsV1;
    for (const part of path) {
      if (!node || typeof node !== 'object' || !Object.hasOwn(node, part)) return false;
      node = (node as Record<string, unknown>)[part];
    }
    return true;
  });
}

/** `ownersOf` with the managers' names sorted, for messages and comparisons. */
export const ownerNames = (obj: KubeObject | undefined, path: string[]) => ownersOf(obj, path).map((e) => e.manager ?? '').sort();

export function dataOf(obj: KubeObject | undefined): Record<string, string> {
  const data = obj?.data;
  return data && typeof data === 'object' ? (data as Record<string, string>) : {};
}

export const done = (message?: string): CheckResult => ({ done: true, message });
export const notYet = (message: string): CheckResult => ({ done: false, message });

/** The `reason` of a Status answer, or ''. */
export function statusReason(body: string): string {
  try {
    const s = JSON.parse(body) as { kind?: string; reason?: string };
    return s.kind === 'Status' ? (s.reason ?? '') : '';
  } catch {
    return '';
  }
}
