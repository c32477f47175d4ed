// kube-controller-manager's PersistentVolume binder (`persistentvolume-binder`, v1.23
// pv_controller.go), as the `persistent-volume-binder` service account: claims are bound to
// matching volumes (pv-matching.ts) with kube's annotations (bind-completed, bound-by-controller),
// claimRef and phases; a claim nothing matches waits for its class's provisioner (the
// storage-provisioner annotations) or, under WaitForFirstConsumer, for the scheduler's
// selected-node; a volume whose claim is gone is Released and reclaimed (Retain keeps it; Delete
// leaves a dynamically provisioned volume to its provisioner and fails a static one, as kube
// has no deleter for it).
import type { Obj } from '../registry/objects';
import type { ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  ANN_STORAGE_PROVISIONER_BETA,
  claimClass,
  findBestMatch,
  isVolumeBoundToClaim,
} from './pv-matching';
import { KeyQueue } from './queue';

const claimPath = (c: Obj) => `/api/v1/namespaces/${c.metadata.namespace}/persistentvolumeclaims/${c.metadata.name}`;
const volumePath = (v: Obj) => `/api/v1/persistentvolumes/${v.metadata.name}`;

export class PersistentVolumeBinder implements Controller {
  readonly name = 'persistentvolume-binder';
  private client!: ApiClient;
  private events!: EventRecorder;
  private claims!: Informer;
  private volumes!: Informer;
  private classes!: Informer;
  private claimQueue!: KeyQueue;
  private volumeQueue!: KeyQueue;
  /** The last event given per object, so a resync does not repeat it (kube repeats every 15 s). */
  private readonly lastEvent = new Map<string, string>();

  async start(ctx: ControllerContext): Promise<void> {
    this.client = ctx.client(controllerServiceAccount('persistent-volume-binder'));
    this.events = new EventRecorder(this.client, ctx.clock, 'persistentvolume-controller');
    this.claimQueue = ctx.queue(new KeyQueue('persistentvolume-binder claims', ctx.clock, (key) => this.syncClaim(key)));
    this.volumeQueue = ctx.queue(new KeyQueue('persistentvolume-binder volumes', ctx.clock, (key) => this.syncVolume(key)));
    this.classes = await ctx.informer('/apis/storage.k8s.io/v1/storageclasses');
    this.volumes = await ctx.informer('/api/v1/persistentvolumes');
    this.claims = await ctx.informer('/api/v1/persistentvolumeclaims');
    this.claims.addHandlers({
      onAdd: (c) => this.claimQueue.add(keyOf(c)),
      onUpdate: (c) => this.claimQueue.add(keyOf(c)),
      onDelete: (c) => {
        this.lastEvent.delete(`claim/${keyOf(c)}`);
        for (const v of this.volumes.list()) if (isVolumeBoundToClaim(v, c)) this.volumeQueue.add(keyOf(v));
      },
    });
    const onVolume = (v: Obj) => {
      this.volumeQueue.add(keyOf(v));
      const ref = v.spec?.claimRef;
      if (ref?.namespace && ref.name) this.claimQueue.add(`${ref.namespace}/${ref.name}`);
      // A volume free to bind: the claims still waiting look again (kube's periodic resync does this).
      else if (v.status?.phase === 'Available') for (const c of this.claims.list()) if (!c.spec?.volumeName) this.claimQueue.add(keyOf(c));
    };
    this.volumes.addHandlers({ onAdd: onVolume, onUpdate: onVolume, onDelete: onVolume });
    // A class appearing may let a waiting claim be provisioned.
    this.classes.addHandlers({ onAdd: () => this.claims.list().forEach((c) => !c.spec?.volumeName && this.claimQueue.add(keyOf(c))) });
  }

  stop(): void {
    this.claimQueue?.stop();
    this.volumeQueue?.stop();
  }

  private async event(obj: Obj, kind: string, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const key = `${kind === 'PersistentVolume' ? 'volume' : 'claim'}/${keyOf(obj)}`;
    if (this.lastEvent.get(key) === `${reason}/${message}`) return;
    this.lastEvent.set(key, `${reason}/${message}`);
    await this.events.record({ ...obj, apiVersion: 'v1', kind }, type, reason, message);
  }

  /** IsDelayBindingMode: the claim's class binds on the first consumer. */
  private delayBinding(claim: Obj): boolean {
    const name = claimClass(claim);
    return name !== '' && this.classes.get(name)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  private async syncClaim(key: string): Promise<void> {
    const claim = this.claims.get(key);
    if (!claim || claim.metadata.deletionTimestamp) return;
    if (claim.metadata.annotations?.[ANN_BIND_COMPLETED] === undefined) return this.syncUnboundClaim(claim);
    return this.syncBoundClaim(claim);
  }

  private async syncUnboundClaim(claim: Obj): Promise<void> {
    if (!claim.spec?.volumeName) {
      const delay = this.delayBinding(claim);
      const volume = findBestMatch(claim, this.volumes.list(), delay);
      if (volume) return this.bind(volume, claim, true);
      if (delay && !claim.metadata.annotations?.[ANN_SELECTED_NODE]) {
        await this.event(claim, 'PersistentVolumeClaim', 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
      } else if (claimClass(claim) !== '') {
        await this.provision(claim);
      } else {
        await this.event(claim, 'PersistentVolumeClaim', 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      }
      return this.claimPhase(claim, 'Pending');
    }
    const volume = this.volumes.get(String(claim.spec.volumeName));
    // The volume the user named does not exist (yet): the claim waits for it.
    if (!volume) return this.claimPhase(claim, 'Pending');
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) {
      await this.event(claim, 'PersistentVolumeClaim', 'Warning', 'FailedBinding', `volume "${volume.metadata.name}" already bound to a different claim.`);
      return this.claimPhase(claim, 'Pending');
    }
    return this.bind(volume, claim, false);
  }

  private async syncBoundClaim(claim: Obj): Promise<void> {
    const name = claim.spec?.volumeName;
    const volume = name ? this.volumes.get(String(name)) : undefined;
    if (!volume) {
      const message = name ? 'Bound claim has lost its PersistentVolume. Data on the volume is lost!' : 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!';
      await this.claimPhase(claim, 'Lost');
      return this.event(claim, 'PersistentVolumeClaim', 'Warning', 'ClaimLost', message);
    }
    if (!volume.spec?.claimRef || isVolumeBoundToClaim(volume, claim)) return this.bind(volume, claim, claim.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === 'yes');
    await this.claimPhase(claim, 'Lost');
    return this.event(claim, 'PersistentVolumeClaim', 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
  }

  /** provisionClaim for an external provisioner: name it on the claim and wait for its volume. */
  private async provision(claim: Obj): Promise<void> {
    const className = claimClass(claim);
    const sc = this.classes.get(className);
    if (!sc) return this.event(claim, 'PersistentVolumeClaim', 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
    const provisioner = String(sc.provisioner);
    const annotations = claim.metadata.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER_BETA] !== provisioner || annotations[ANN_STORAGE_PROVISIONER] !== provisioner) {
      await this.client.update(claimPath(claim), { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { ...claim.metadata, annotations: { ...annotations, [ANN_STORAGE_PROVISIONER_BETA]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner } } });
    }
    await this.event(claim, 'PersistentVolumeClaim', 'Normal', 'ExternalProvisioning', `waiting for a volume to be created, either by external provisioner "${provisioner}" or manually created by system administrator`);
  }

  /**
   * bind(): the volume's claimRef (bindVolumeToClaim), its phase, the claim's volumeName and
   * annotations (bindClaimToVolume), the claim's status — each step written only when missing.
   */
  private async bind(volume: Obj, claim: Obj, claimChosenByController: boolean): Promise<void> {
    if (!isVolumeBoundToClaim(volume, claim) || !volume.spec.claimRef.uid) {
      const claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
      const annotations = { ...(volume.metadata.annotations ?? {}) };
      if (!volume.spec?.claimRef) annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
      volume = await this.client.update(volumePath(volume), { ...volume, apiVersion: 'v1', kind: 'PersistentVolume', metadata: { ...volume.metadata, annotations }, spec: { ...volume.spec, claimRef } });
    }
    if (volume.status?.phase !== 'Bound') volume = await this.volumePhase(volume, 'Bound');
    const annotations = claim.metadata.annotations ?? {};
    const wantBoundBy = claimChosenByController || annotations[ANN_BOUND_BY_CONTROLLER] === 'yes';
    if (claim.spec?.volumeName !== volume.metadata.name || annotations[ANN_BIND_COMPLETED] !== 'yes' || (wantBoundBy && annotations[ANN_BOUND_BY_CONTROLLER] !== 'yes')) {
      const next = { ...annotations, [ANN_BIND_COMPLETED]: 'yes' };
      if (wantBoundBy) next[ANN_BOUND_BY_CONTROLLER] = 'yes';
      claim = await this.client.update(claimPath(claim), { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { ...claim.metadata, annotations: next }, spec: { ...claim.spec, volumeName: volume.metadata.name } });
    }
    const status = claim.status ?? {};
    const capacity = volume.spec?.capacity;
    if (status.phase !== 'Bound' || JSON.stringify(status.accessModes) !== JSON.stringify(volume.spec?.accessModes) || JSON.stringify(status.capacity) !== JSON.stringify(capacity)) {
      await this.client.update(`${claimPath(claim)}/status`, { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim', status: { ...status, phase: 'Bound', accessModes: volume.spec?.accessModes, capacity } });
    }
  }

  private async claimPhase(claim: Obj, phase: string): Promise<void> {
    if (claim.status?.phase === phase) return;
    await this.client.update(`${claimPath(claim)}/status`, { ...claim, apiVersion: 'v1', kind: 'PersistentVolumeClaim', status: { ...(claim.status ?? {}), phase } });
  }

  private async volumePhase(volume: Obj, phase: string, message?: string): Promise<Obj> {
    if (volume.status?.phase === phase && volume.status?.message === message) return volume;
    const status: Obj = { phase };
    if (message) status.message = message;
    return this.client.update(`${volumePath(volume)}/status`, { ...volume, apiVersion: 'v1', kind: 'PersistentVolume', status });
  }

  private async syncVolume(name: string): Promise<void> {
    const volume = this.volumes.get(name);
    if (!volume || volume.metadata.deletionTimestamp) return;
    const ref = volume.spec?.claimRef;
    // Unbound, or pre-bound by a user to a claim not yet seen: Available.
    if (!ref || !ref.uid) {
      await this.volumePhase(volume, 'Available');
      return;
    }
    let claim = this.claims.get(`${ref.namespace}/${ref.name}`);
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;
    if (!claim) return this.reclaim(volume);
    if (!claim.spec?.volumeName) {
      // Pre-bound to a claim that is not bound yet: the claim's sync finishes the binding.
      this.claimQueue.add(keyOf(claim));
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) {
      await this.volumePhase(volume, 'Bound');
      return;
    }
    // The claim went to another volume: a volume the controller bound is set free again.
    if (volume.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === 'yes') {
      const annotations = { ...volume.metadata.annotations };
      delete annotations[ANN_BOUND_BY_CONTROLLER];
      const spec = { ...volume.spec };
      delete spec.claimRef;
      const freed = await this.client.update(volumePath(volume), { ...volume, apiVersion: 'v1', kind: 'PersistentVolume', metadata: { ...volume.metadata, annotations }, spec });
      await this.volumePhase(freed, 'Available');
    }
  }

  /** The claim is gone: Released, then the reclaim policy. */
  private async reclaim(volume: Obj): Promise<void> {
    const phase = volume.status?.phase;
    if (phase === 'Failed') return;
    if (phase !== 'Released') volume = await this.volumePhase(volume, 'Released');
    const policy = volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    if (policy === 'Retain') return;
    if (policy === 'Delete') {
      // A dynamically provisioned volume: its provisioner deletes it (and its storage).
      if (volume.metadata.annotations?.[ANN_PROVISIONED_BY]) return;
      const message = `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`;
      await this.volumePhase(volume, 'Failed', message);
      return this.event(volume, 'PersistentVolume', 'Warning', 'VolumeFailedDelete', message);
    }
    await this.volumePhase(volume, 'Failed', 'No recycler plugin found for the volume!');
    return this.event(volume, 'PersistentVolume', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
  }
}
