// kube-controller-manager's controllers that run inside the API server (decision 0016), in start
// order: one list, one interface (decision 0039). Each is switched off by its --controllers name;
// with leader election only the Lease holder runs them (ControllerLeader starts and stops this
// set). Adding one: a class with `name`, `start()` and `stop()` in its own file, and one entry here.
import type { RegistryContext } from '../registry/context';
import type { InProcessController } from '../registry/in-process-controller';
import type { LeaderControllers } from '../controllers/builtin/controller-leader';
import type { ControllerSelection } from '../controllers/controllers-flag';
import type { ServiceAccountTokens } from '../auth/service-account-tokens';
import { LegacyTokenController } from '../controllers/builtin/legacy-token-controller';
import { clusterCaPem } from '../auth/cluster-ca';
import { PdbStatusController } from '../controllers/builtin/pdb-controller';
import { GarbageCollector } from '../controllers/builtin/garbage-collector';
import { QuotaStatusController } from '../admission/resource-quota';
import { RootCaPublisher } from '../controllers/builtin/root-ca-publisher';

/** What the in-process controllers are made from. */
export interface InProcessDeps {
  ctx: RegistryContext;
  /** The service-account token issuer (the tokens controller signs with it). */
  saTokens: ServiceAccountTokens;
}

export const IN_PROCESS_CONTROLLERS: readonly ((deps: InProcessDeps) => InProcessController)[] = [
  // Token Secrets (`ca.crt` the cluster CA).
  (d) => new LegacyTokenController(d.ctx, d.saTokens, () => clusterCaPem(d.ctx)),
  (d) => new PdbStatusController(d.ctx),
  (d) => new GarbageCollector(d.ctx),
  (d) => new QuotaStatusController(d.ctx),
  (d) => new RootCaPublisher(d.ctx),
];

/** The list made for one API server: starts the ones the selection enables, in order; stops them all. */
export class InProcessControllers implements LeaderControllers {
  readonly all: readonly InProcessController[];

  constructor(
    deps: InProcessDeps,
    private readonly enabled: ControllerSelection,
    makers: readonly ((deps: InProcessDeps) => InProcessController)[] = IN_PROCESS_CONTROLLERS,
  ) {
    this.all = makers.map((make) => make(deps));
  }

  async start(): Promise<void> {
    for (const c of this.all) if (this.enabled(c.name)) await c.start();
  }

  stop(): void {
    for (const c of this.all) c.stop();
  }
}
