// The simulated cluster's part of the Settings form: whether it runs at all, kube-controller-
// manager's --controllers, the nodes (count and size), the kubelet delay and the clock speed —
// the flags `npm run serve` takes, with the same checks (the worker refuses what the Node host
// would, in its words). Applying restarts the API and the controllers with the new options.
import type { HostSettings } from '../../../hosts/sw/protocol';
import './cluster.css';

type ClusterFields = Pick<HostSettings, 'clusterOn' | 'controllers' | 'nodes' | 'nodeCpu' | 'nodeMemory' | 'kubeletDelay' | 'clockSpeed'>;

export function ClusterSettingsFields({ form, set }: { form: ClusterFields; set(patch: Partial<HostSettings>): void }) {
  const off = !form.clusterOn;
  return (
    <fieldset className="cluster-settings">
      <legend>Simulated cluster</legend>
      <label className="check">
        <input type="checkbox" checked={form.clusterOn} onChange={(e) => set({ clusterOn: e.target.checked })} />
        Run the cluster: simulated nodes and kubelets, the scheduler and the workload controllers
      </label>
      <p className="muted">
        Off, Deployments are stored and nothing acts on them (the API&apos;s own controllers — namespaces, garbage collection, tokens — still run). To hold everything for a moment, pause the clock in the header instead.
      </p>
      <label>
        Controllers (<code>--controllers</code>)
        <input value={form.controllers} disabled={off} onChange={(e) => set({ controllers: e.target.value })} placeholder="*,-deployment" spellCheck={false} />
      </label>
      <div className="row">
        <label>
          Nodes (<code>--nodes</code>)
          <input type="number" min={0} max={1000} value={form.nodes} disabled={off} onChange={(e) => set({ nodes: e.target.valueAsNumber })} />
        </label>
        <label>
          CPU per node (<code>--node-cpu</code>)
          <input value={form.nodeCpu} disabled={off} onChange={(e) => set({ nodeCpu: e.target.value })} placeholder="4" spellCheck={false} />
        </label>
        <label>
          Memory per node (<code>--node-memory</code>)
          <input value={form.nodeMemory} disabled={off} onChange={(e) => set({ nodeMemory: e.target.value })} placeholder="8Gi" spellCheck={false} />
        </label>
        <label>
          Kubelet delay (<code>--kubelet-delay</code>)
          <input value={form.kubeletDelay} disabled={off} onChange={(e) => set({ kubeletDelay: e.target.value })} placeholder="1s" spellCheck={false} />
        </label>
        <label>
          Clock speed (<code>--clock-speed</code>)
          <input type="number" min={0.1} step="any" value={form.clockSpeed} onChange={(e) => set({ clockSpeed: e.target.valueAsNumber })} />
        </label>
      </div>
    </fieldset>
  );
}
