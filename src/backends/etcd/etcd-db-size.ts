// kube-apiserver's etcd database size monitor: every --etcd-db-metric-poll-interval (30 s) it asks
// each endpoint of --etcd-servers for its status and keeps the member's db size for
// etcd_db_total_size_in_bytes{endpoint}. A failed poll keeps the last value, as kube's does.
import { Etcd3 } from 'etcd3';

/** kube-apiserver's --etcd-db-metric-poll-interval default. */
const POLL_INTERVAL_MS = 30_000;
/** Each status call's deadline. */
const STATUS_DEADLINE_MS = 1000;

export class EtcdDbSizes {
  private readonly sizes = new Map<string, number>();
  private readonly clients: Array<{ endpoint: string; client: Etcd3 }>;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(endpoints: readonly string[], intervalMs = POLL_INTERVAL_MS) {
    // One client per endpoint: a shared client would ask whichever member it is connected to.
    this.clients = endpoints.map((endpoint) => ({ endpoint, client: new Etcd3({ hosts: [endpoint], dialTimeout: STATUS_DEADLINE_MS }) }));
    this.timer = setInterval(() => void this.poll(), intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
    void this.poll();
  }

  /** The last size seen per endpoint (an endpoint never reached yet is absent). */
  current(): Array<{ endpoint: string; bytes: number }> {
    return [...this.sizes].map(([endpoint, bytes]) => ({ endpoint, bytes }));
  }

  async poll(): Promise<void> {
    await Promise.all(
      this.clients.map(async ({ endpoint, client }) => {
        try {
          const status = await client.maintenance.status({ deadline: Date.now() + STATUS_DEADLINE_MS });
          this.sizes.set(endpoint, Number(status.dbSize));
        } catch {
          // Unreachable now: keep the last value; the next poll tries again.
        }
      }),
    );
  }

  close(): void {
    clearInterval(this.timer);
    for (const { client } of this.clients) client.close();
  }
}
