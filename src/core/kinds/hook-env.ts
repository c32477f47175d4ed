// What a kind's hooks may need from the API server that builds them (decision 0039).
import type { RegistryContext } from '../registry/context';
import type { NamespaceController } from '../controllers/builtin/namespace-controller';

export interface KindHookEnv {
  ctx: RegistryContext;
  /** The namespace controller a Terminating namespace is handed to. */
  namespaces: NamespaceController;
  /** The CustomResourceValidationExpressions gate (alpha in v1.23, off by default). */
  crdValidationExpressions: boolean;
}
