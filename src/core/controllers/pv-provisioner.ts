// The playground's storage add-on, as kind and minikube ship one: a default StorageClass
// `standard` and an external dynamic provisioner for it, `kube-playground.io/hostpath` (kind's
// local-path-provisioner in small, decision 0035). It provisions a claim the PV binder has handed
// to it (the storage-provisioner annotations) — under WaitForFirstConsumer once the scheduler
// has chosen a node (the selected-node annotation), with a volume pinned to that node — and
// deletes a volume it made once the volume is Released under the Delete policy. It runs as the
// `kube-system/storage-provisioner` service account, bound to kube's
// system:persistent-volume-provisioner role, as minikube's storage-provisioner is.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient, type Identity } from './client';
import { ADDON_INSTALLER, ENSURE_EXISTS } from './addons';
import type { Controller, ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { ANN_PROVISIONED_BY, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, ANN_STORAGE_PROVISIONER_BETA, claimClass } from './pv-matching';
import { KeyQueue } from './queue';

export const PROVISIONER_NAME = 'kube-playground.io/hostpath';
export const DEFAULT_STORAGE_CLASS = 'standard';
/** Where the simulated volumes would live on the node (local-path-provisioner's layout). */
const VOLUME_DIR = '/var/lib/kube-playground/volumes';

const PROVISIONER: Identity = {
  username: 'system:serviceaccount:kube-system:storage-provisioner',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  fieldManager: 'storage-provisioner',
};

export function defaultStorageClass(): Obj {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    // Labelled as the add-on manager labels what it only creates (minikube's storageclass addon).
    metadata: { name: DEFAULT_STORAGE_CLASS, labels: { ...ENSURE_EXISTS }, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: PROVISIONER_NAME,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

function volumeFor(claim: Obj, sc: Obj, node: string | undefined): Obj {
  const name = `pvc-${claim.metadata.uid}`;
  const spec: Obj = {
    capacity: { storage: claim.spec?.resources?.requests?.storage },
    hostPath: { path: `${VOLUME_DIR}/${name}_${claim.metadata.namespace}_${claim.metadata.name}`, type: 'DirectoryOrCreate' },
    accessModes: claim.spec?.accessModes,
    claimRef: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion },
    persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
    storageClassName: sc.metadata.name,
    volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
  };
  if (Array.isArray(sc.mountOptions)) spec.mountOptions = sc.mountOptions;
  if (node) spec.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } };
  return { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, annotations: { [ANN_PROVISIONED_BY]: PROVISIONER_NAME } }, spec };
}

export class StorageProvisioner implements Controller {
  readonly name = 'storage-provisioner';
  private client!: ApiClient;
  private events!: EventRecorder;
  private claims!: Informer;
  private volumes!: Informer;
  private classes!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.client = ctx.client(PROVISIONER);
    this.events = new EventRecorder(this.client, ctx.clock, `${PROVISIONER_NAME}_storage-provisioner`);
    this.classes = await ctx.informer('/apis/storage.k8s.io/v1/storageclasses');
    await ctx.track(this.installDefaultClass(ctx.client(ADDON_INSTALLER)));
    this.queue = ctx.queue(new KeyQueue('storage-provisioner', ctx.clock, (key) => (key.startsWith('pv/') ? this.syncVolume(key.slice(3)) : this.syncClaim(key.slice(4)))));
    this.volumes = await ctx.informer('/api/v1/persistentvolumes');
    this.claims = await ctx.informer('/api/v1/persistentvolumeclaims');
    this.claims.addHandlers({ onAdd: (c) => this.queue.add(`pvc/${keyOf(c)}`), onUpdate: (c) => this.queue.add(`pvc/${keyOf(c)}`) });
    this.volumes.addHandlers({ onAdd: (v) => this.queue.add(`pv/${keyOf(v)}`), onUpdate: (v) => this.queue.add(`pv/${keyOf(v)}`) });
  }

  stop(): void {
    this.queue?.stop();
  }

  /** The default class, unless the cluster has it or another default already (a user's choice stands). */
  private async installDefaultClass(installer: ApiClient): Promise<void> {
    const isDefault = (sc: Obj) => ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'].some((a) => sc.metadata?.annotations?.[a] === 'true');
    if (this.classes.get(DEFAULT_STORAGE_CLASS) || this.classes.list().some(isDefault)) return;
    try {
      await installer.create('/apis/storage.k8s.io/v1/storageclasses', defaultStorageClass());
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 409)) throw err;
    }
  }

  /** shouldProvision: handed to us, not bound, and (WaitForFirstConsumer) placed by the scheduler. */
  private async syncClaim(key: string): Promise<void> {
    const claim = this.claims.get(key);
    if (!claim || claim.metadata.deletionTimestamp || claim.spec?.volumeName) return;
    const annotations = claim.metadata.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== PROVISIONER_NAME && annotations[ANN_STORAGE_PROVISIONER_BETA] !== PROVISIONER_NAME) return;
    const sc = this.classes.get(claimClass(claim));
    if (!sc || sc.provisioner !== PROVISIONER_NAME) return;
    const node = annotations[ANN_SELECTED_NODE] as string | undefined;
    if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !node) return;
    const pv = volumeFor(claim, sc, node);
    if (this.volumes.get(String(pv.metadata.name))) return;
    const involved = { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim' };
    await this.events.record(involved, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    try {
      await this.client.create('/api/v1/persistentvolumes', pv);
    } catch (err) {
      // Made already (a restart between create and cache): the binder takes it from there.
      if (err instanceof ApiCallError && err.code === 409) return;
      await this.events.record(involved, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    await this.events.record(involved, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pv.metadata.name}`);
  }

  /** A volume of ours, Released under the Delete policy: deleted. */
  private async syncVolume(name: string): Promise<void> {
    const volume = this.volumes.get(name);
    if (!volume || volume.metadata.deletionTimestamp) return;
    if (volume.metadata.annotations?.[ANN_PROVISIONED_BY] !== PROVISIONER_NAME) return;
    if (volume.status?.phase !== 'Released' || volume.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    try {
      await this.client.delete(`/api/v1/persistentvolumes/${name}`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: volume.metadata.uid } });
    } catch (err) {
      if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
