// What the cluster lessons share: a Deployment's YAML as a learner writes it, the playground's
// clock requests (an admin endpoint of the page's worker: a real cluster's time cannot be
// paused, so there is no kubectl for them), and readers of a Deployment's status.
import { DEPLOY, NS } from './checks';
import type { KubeObject, LessonRequest } from './types';

export const PODS = `/api/v1/namespaces/${NS}/pods`;
export const CLOCK = '/__playground/clock';
export const NO_KUBECTL_CLOCK = '# no kubectl for this: the clock is the playground’s (a real cluster’s time cannot be paused). Use the clock in the header, or send the request.';

export function clock(action: 'pause' | 'resume'): LessonRequest;
export function clock(action: 'step', ms: number): LessonRequest;
export function clock(action: 'pause' | 'resume' | 'step', ms?: number): LessonRequest {
  return { method: 'POST', path: CLOCK, contentType: 'application/json', body: JSON.stringify(action === 'step' ? { action, ms } : { action }) };
}

/** A Deployment as a learner writes it; `replicas` left out when undefined (the fix in two lessons). */
export function deploymentYaml(name: string, image: string, replicas?: number): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    ...(replicas === undefined ? [] : [`  replicas: ${replicas}`]),
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    '      - name: web',
    `        image: ${image}`,
    '        resources:',
    '          requests:',
    '            cpu: 100m',
    '',
  ].join('\n');
}

export const deploymentPath = (name: string) => `${DEPLOY}/${name}`;

export interface DeploymentStatus {
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
}

export function statusOf(d: KubeObject | undefined): DeploymentStatus {
  return (d?.status ?? {}) as DeploymentStatus;
}

export function specReplicas(d: KubeObject | undefined): number | undefined {
  return (d?.spec as { replicas?: number } | undefined)?.replicas;
}

/** The first container's image in the pod template. */
export function imageOf(d: KubeObject | undefined): string {
  const spec = d?.spec as { template?: { spec?: { containers?: Array<{ image?: string }> } } } | undefined;
  return spec?.template?.spec?.containers?.[0]?.image ?? '';
}

/** Whether the controller has seen the Deployment's latest spec (its status is about this spec). */
export function observed(d: KubeObject | undefined): boolean {
  return d?.metadata?.generation !== undefined && statusOf(d).observedGeneration === d.metadata.generation;
}
