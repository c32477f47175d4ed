// The per-kind hooks the registry calls around a write.
import type { FieldError } from '../meta/status';

/** What the server is configured with that a kind's validation needs. */
export interface ValidationEnv {
  /** Webhook URL origins the host answers itself (may be http). */
  localWebhookOrigins?: readonly string[];
}

export interface KindRules {
  /** Fill defaults in place (create and update), as the v1.23 defaulting functions do. */
  defaults?(obj: any): void;
  /**
   * Update only, before `defaults`: carry over values the server allocated that a full replace
   * may omit (Service clusterIP/clusterIPs/ipFamilies/nodePorts), as the v1.23 registry does.
   */
  prepareForUpdate?(obj: any, old: any): void;
  /** Validate a new object (create). Metadata is checked separately by validateObjectMeta. */
  validateCreate?(obj: any, env?: ValidationEnv): FieldError[];
  /**
   * Validate an update (old = stored object); immutable-field checks here. Metadata:
   * validateObjectMetaUpdate. `subresource` is '' for the main resource.
   */
  validateUpdate?(obj: any, old: any, subresource?: string, env?: ValidationEnv): FieldError[];
}
