// The per-kind hooks the registry calls around a write.
import type { FieldError } from '../../server/status';

export interface KindRules {
  /** Fill defaults in place (create and update), as the v1.23 defaulting functions do. */
  defaults?(obj: any): void;
  /**
   * Update only, before `defaults`: carry over values the server allocated that a full replace
   * may omit (Service clusterIP/clusterIPs/ipFamilies/nodePorts), as the v1.23 registry does.
   */
  prepareForUpdate?(obj: any, old: any): void;
  /** Validate a new object (create). Metadata is checked separately by validateObjectMeta. */
  validateCreate?(obj: any): FieldError[];
  /**
   * Validate an update (old = stored object); immutable-field checks here. Metadata:
   * validateObjectMetaUpdate. `subresource` is '' for the main resource.
   */
  validateUpdate?(obj: any, old: any, subresource?: string): FieldError[];
}
