// The stored webhook configurations, read cheaply: a synchronous count from the key index says
// whether any exist (the common case: none, and admission costs nothing); when some do, they are
// read and parsed once per stored revision of each configuration.
import type { RegistryContext } from '../../registry/context';
import { webhooksOf, type Webhook } from './config';

const GROUP = 'admissionregistration.k8s.io';
const PREFIXES = { mutating: `/${GROUP}/mutatingwebhookconfigurations/`, validating: `/${GROUP}/validatingwebhookconfigurations/` };

export class WebhookSource {
  private parsed = new Map<string, { rev: number; hooks: Webhook[] }>();

  constructor(private readonly ctx: RegistryContext) {}

  /** True when at least one configuration is stored. */
  configured(): boolean {
    try {
      return this.ctx.mvcc.count(PREFIXES.mutating) + this.ctx.mvcc.count(PREFIXES.validating) > 0;
    } catch {
      // The key index of a lazily opened store is not loaded yet: no writes are served then.
      return false;
    }
  }

  /** Every webhook of one kind, configurations sorted by name (kube's order), hooks in their order. */
  async hooks(kind: 'mutating' | 'validating'): Promise<Webhook[]> {
    const { kvs } = await this.ctx.mvcc.range(PREFIXES[kind]);
    const out: Webhook[] = [];
    for (const kv of kvs) {
      let entry = this.parsed.get(kv.key);
      if (!entry || entry.rev !== kv.modRev) {
        entry = { rev: kv.modRev, hooks: webhooksOf(JSON.parse(kv.value), kind === 'mutating') };
        this.parsed.set(kv.key, entry);
      }
      out.push(...entry.hooks);
    }
    if (this.parsed.size > kvs.length * 2 + 16) this.parsed.clear();
    return out;
  }
}
