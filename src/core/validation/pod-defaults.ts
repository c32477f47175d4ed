// Pod and pod-template defaulting as kube-apiserver v1.23 applies it (core/v1 defaults.go plus the
// ServiceAccount and Priority admission plugins for Pods), so `get -o yaml` looks like a cluster's.
import { addQuantity, compareQuantity, parseQuantity, type Quantity } from './quantity';
import { ownValue, setOwnKey } from '../codec/own-keys';

type Obj = Record<string, any>;

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** Tag of an image reference the way ParseImageName sees it ("latest" when neither tag nor digest). */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const named = at >= 0 ? image.slice(0, at) : image;
  const lastSlash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const tag = colon > lastSlash ? named.slice(colon + 1) : '';
  if (!tag && at < 0) return 'latest';
  return tag;
}

function defaultProbe(p: unknown): void {
  if (!isObj(p)) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  if (isObj(p.httpGet)) {
    if (!p.httpGet.path) p.httpGet.path = '/';
    if (!p.httpGet.scheme) p.httpGet.scheme = 'HTTP';
  }
}

function defaultLifecycleHandler(h: unknown): void {
  if (isObj(h) && isObj(h.httpGet)) {
    if (!h.httpGet.path) h.httpGet.path = '/';
    if (!h.httpGet.scheme) h.httpGet.scheme = 'HTTP';
  }
}

/** SetDefaults_Container and the defaults of its nested types. */
export function defaultContainer(c: Obj): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(String(c.image ?? '')) === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  if (!isObj(c.resources)) c.resources = {};
  for (const p of list(c.ports)) if (!p.protocol) p.protocol = 'TCP';
  for (const e of list(c.env)) {
    if (isObj(e.valueFrom) && isObj(e.valueFrom.fieldRef) && !e.valueFrom.fieldRef.apiVersion) e.valueFrom.fieldRef.apiVersion = 'v1';
    if (isObj(e.valueFrom) && isObj(e.valueFrom.resourceFieldRef) && e.valueFrom.resourceFieldRef.divisor === undefined) {
      e.valueFrom.resourceFieldRef.divisor = '0';
    }
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    defaultLifecycleHandler(c.lifecycle.postStart);
    defaultLifecycleHandler(c.lifecycle.preStop);
  }
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral',
];
export { VOLUME_SOURCES };

/** SetDefaults_Volume and the per-source defaults (defaultMode 0644, hostPath type ""). */
function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  for (const s of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObj(v[s]) && v[s].defaultMode === undefined) v[s].defaultMode = 420;
  }
  if (isObj(v.hostPath) && v.hostPath.type === undefined) v.hostPath.type = '';
  if (isObj(v.downwardAPI)) {
    for (const item of list(v.downwardAPI.items)) if (isObj(item.fieldRef) && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
  }
}

/** SetDefaults_PodSpec (shared by Pods and every pod template). */
export function defaultPodSpec(spec: Obj): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) spec.terminationGracePeriodSeconds = 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  if (spec.hostNetwork === true) {
    // With host networking the host port is the container port.
    for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
      for (const p of list(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
  for (const c of list(spec.containers)) defaultContainer(c);
  for (const c of list(spec.initContainers)) defaultContainer(c);
  // SetDefaults_EphemeralContainer: the container defaults on its common fields.
  for (const c of list(spec.ephemeralContainers)) defaultContainer(c);
  for (const v of list(spec.volumes)) defaultVolume(v);
}

/** Defaults for a PodTemplateSpec embedded in a workload (no Pod-only defaults). */
export function defaultPodTemplate(template: unknown): void {
  if (isObj(template) && isObj(template.spec)) defaultPodSpec(template.spec);
}

/** Pods only: SetDefaults_Pod (requests from limits, enableServiceLinks) and the admission defaults. */
export function defaultPod(pod: Obj): void {
  if (!isObj(pod.spec)) return;
  const spec = pod.spec;
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    if (!isObj(c.resources) || !isObj(c.resources.limits)) continue;
    // Requests default to limits, per resource, only on Pods (not templates).
    const req: Obj = isObj(c.resources.requests) ? c.resources.requests : {};
    for (const [k, v] of Object.entries(c.resources.limits)) if (ownValue(req, k) === undefined) setOwnKey(req, k, v);
    c.resources.requests = req;
  }
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  defaultPodSpec(spec);
  // ServiceAccount admission, and the deprecated serviceAccount mirror the conversion keeps in sync.
  if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || 'default';
  spec.serviceAccount = spec.serviceAccountName;
  // Priority admission: no priorityClassName → priority 0 with the default preemption policy.
  if (spec.priority === undefined || spec.priority === null) spec.priority = 0;
  if (!spec.preemptionPolicy) spec.preemptionPolicy = 'PreemptLowerPriority';
  if (isObj(pod.status) && !pod.status.qosClass) pod.status.qosClass = podQOSClass(spec);
}

const QOS_RESOURCES = ['cpu', 'memory'];

/** qos.GetPodQOS: BestEffort, Guaranteed or Burstable from the containers' requests and limits. */
export function podQOSClass(spec: Obj): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const sum = (m: Map<string, Quantity>, k: string, q: Quantity) => m.set(k, m.has(k) ? addQuantity(m.get(k)!, q) : q);
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    const res = isObj(c.resources) ? c.resources : {};
    for (const [k, v] of Object.entries(isObj(res.requests) ? res.requests : {})) {
      const q = parseQuantity(v);
      if (QOS_RESOURCES.includes(k) && q && q.unscaled !== 0n) sum(requests, k, q);
    }
    const found = new Set<string>();
    for (const [k, v] of Object.entries(isObj(res.limits) ? res.limits : {})) {
      const q = parseQuantity(v);
      if (QOS_RESOURCES.includes(k) && q && q.unscaled !== 0n) {
        found.add(k);
        sum(limits, k, q);
      }
    }
    if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [k, q] of requests) {
      const l = limits.get(k);
      if (!l || compareQuantity(l, q) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && limits.size === requests.size ? 'Guaranteed' : 'Burstable';
}
