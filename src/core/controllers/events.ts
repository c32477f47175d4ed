// Events as kube's record.EventRecorder writes them (core/v1): one object per occurrence, named
// `<involved object>.<16 hex>`, with the reporting component as source. A failure to record is
// logged only: an event must never stop the work it describes.
import type { Obj } from '../registry/objects';
import type { ApiClient } from './client';
import { rfc3339Seconds, type Clock } from './clock';
import { hexId } from './ids';

export class EventRecorder {
  private seq = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    /** source.component: `deployment-controller`, `default-scheduler`, `kubelet`. */
    private readonly component: string,
    private readonly host?: string,
  ) {}

  async record(involved: Obj, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const ns = String(involved.metadata?.namespace ?? 'default');
    const now = this.clock.now();
    const at = rfc3339Seconds(now);
    const name = `${involved.metadata?.name}.${hexId(`${involved.metadata?.uid}/${reason}/${now}/${this.seq++}`, 8)}`;
    const source: Obj = { component: this.component };
    if (this.host) source.host = this.host;
    const event: Obj = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata?.namespace,
        name: involved.metadata?.name,
        uid: involved.metadata?.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata?.resourceVersion,
      },
      reason,
      message,
      source,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    };
    try {
      await this.client.create(`/api/v1/namespaces/${ns}/events`, event);
    } catch (err) {
      console.error(`${this.component}: event ${reason} not recorded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
