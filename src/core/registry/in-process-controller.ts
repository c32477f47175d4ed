// The shape of a controller that runs inside the API server and writes through the store
// (decision 0016): the simulated cluster's Controller (controllers/controller.ts) without its
// ControllerContext, since these work on the RegistryContext they were made with. The ordered
// list is server/in-process-controllers.ts (decision 0039).

export interface InProcessController {
  /** kube-controller-manager's --controllers name: the flag switches it off by this name. */
  readonly name: string;
  /** Lists what it follows, starts its watches; called again after a retried bootstrap or a regained lease. */
  start(): Promise<void> | void;
  /** Cancels its watches and queued work; harmless when it never started. */
  stop(): void;
}
