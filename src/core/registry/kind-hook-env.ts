// What a kind's hooks may need from the API server that builds them (decision 0039).
import type { RegistryContext } from './context';

/** What a Namespace's hooks need of the namespace controller (controllers/builtin/namespace-controller.ts): its queue. */
export interface NamespaceQueueing {
  enqueue(name: string): void;
}

export interface KindHookEnv {
  ctx: RegistryContext;
  /** The namespace controller a Terminating namespace is handed to. */
  namespaces: NamespaceQueueing;
  /** The CustomResourceValidationExpressions gate (alpha in v1.23, off by default). */
  crdValidationExpressions: boolean;
}
