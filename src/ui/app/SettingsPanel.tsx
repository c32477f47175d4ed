// The browser host's API settings, as kube-apiserver's flags: --runtime-config, --feature-gates,
// the access control mode and --history-window (how long watches can resume; 410 Gone after);
// and the simulated cluster's, as the Node host's (--controllers, nodes, kubelet delay, clock).
// Applying them restarts the API over the same storage (objects kept), shows progress, then the
// result or the start-up error (the old settings stay in force); every view reloads, so a
// switched-off group/version leaves the resource tree.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { AccessControlMode, HostSettings, SettingsAnswer } from '../../hosts/sw/protocol';
import { readSettings, writeSettings } from '../../hosts/sw/page/page-client';
import { ErrorBox } from './ErrorBox';
import { isHostSettings, queryKeys } from '../lib/query-keys';
import { WarningsList } from './Warnings';
import { ClusterSettingsFields } from './cluster/ClusterSettingsFields';

/** The settings in force (undefined while loading, or on a host without them). */
export function useHostSettings(apiBase: string) {
  return useQuery({ queryKey: queryKeys.hostSettings(apiBase), queryFn: () => readSettings(apiBase), staleTime: Infinity });
}

type Outcome = { state: 'idle' } | { state: 'applying' } | { state: 'done'; answer: SettingsAnswer } | { state: 'failed'; error: unknown };

export function SettingsPanel({ apiBase }: { apiBase: string }) {
  const queryClient = useQueryClient();
  const current = useHostSettings(apiBase);
  const [form, setForm] = useState<HostSettings>();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  useEffect(() => {
    if (current.data && !form) setForm(current.data.settings);
  }, [current.data, form]);

  if (current.isError) return <ErrorBox error={current.error} />;
  if (!form) return <p aria-busy="true">Loading settings…</p>;

  const set = (patch: Partial<HostSettings>) => setForm({ ...form, ...patch });
  const apply = async (e: FormEvent) => {
    e.preventDefault();
    setOutcome({ state: 'applying' });
    try {
      const answer = await writeSettings(apiBase, form);
      if (!answer.error) {
        queryClient.setQueryData(queryKeys.hostSettings(apiBase), answer);
        // A restarted API may serve other group/versions (and the clock another speed): every view reads afresh.
        void queryClient.invalidateQueries({ predicate: (q) => !isHostSettings(q.queryKey) });
      }
      setOutcome({ state: 'done', answer });
    } catch (error) {
      setOutcome({ state: 'failed', error });
    }
  };
  const inForce = current.data?.settings;

  return (
    <section aria-label="Settings" className="settings">
      <h2>API server settings</h2>
      <p>
        The same flags kube-apiserver takes at start-up (and <code>npm run serve</code> accepts). Applying them restarts the API with every object kept; open watches end and resume.
      </p>
      <form onSubmit={(e) => void apply(e)}>
        <label>
          Runtime config (<code>--runtime-config</code>)
          <input value={form.runtimeConfig} onChange={(e) => set({ runtimeConfig: e.target.value })} placeholder="batch/v1beta1=false,batch/v2alpha1" spellCheck={false} />
        </label>
        <label>
          Feature gates (<code>--feature-gates</code>)
          <input value={form.featureGates} onChange={(e) => set({ featureGates: e.target.value })} placeholder="APIListChunking=false" spellCheck={false} />
        </label>
        <label>
          History window (<code>--history-window</code>)
          <input value={form.historyWindow} onChange={(e) => set({ historyWindow: e.target.value })} placeholder="5m" spellCheck={false} />
        </label>
        <label>
          Access control
          <select value={form.accessControl} onChange={(e) => set({ accessControl: e.target.value as AccessControlMode })}>
            <option value="off">off (AlwaysAllow: everyone is system:masters)</option>
            <option value="RBAC">RBAC (roles and bindings enforced; this page stays an admin)</option>
          </select>
        </label>
        <ClusterSettingsFields form={form} set={set} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={outcome.state === 'applying'}>
            Apply
          </button>
          {outcome.state === 'applying' && (
            <span role="status" aria-busy="true">
              Restarting the API…
            </span>
          )}
        </div>
      </form>
      <output data-testid="settings-result">
        {outcome.state === 'done' && outcome.answer.error && (
          <div role="alert" className="error-box">
            <strong>Settings refused</strong>: {outcome.answer.error}
            <br />
            The previous settings stay in force.
          </div>
        )}
        {outcome.state === 'done' && !outcome.answer.error && <p role="status">Applied: the API restarted in {outcome.answer.restartMs ?? '?'} ms.</p>}
        {outcome.state === 'done' && <WarningsList warnings={outcome.answer.warnings} />}
        {outcome.state === 'failed' && <ErrorBox error={outcome.error} />}
      </output>
      {inForce && (
        <dl className="paging-facts" aria-label="Settings in force">
          <dt>runtime config</dt>
          <dd data-testid="in-force-runtime-config">{inForce.runtimeConfig || '(defaults)'}</dd>
          <dt>feature gates</dt>
          <dd>{inForce.featureGates || '(defaults)'}</dd>
          <dt>access control</dt>
          <dd data-testid="in-force-access-control">{inForce.accessControl === 'RBAC' ? 'RBAC' : 'off (AlwaysAllow)'}</dd>
          <dt>history window</dt>
          <dd data-testid="in-force-history-window">{inForce.historyWindow || '5m (default)'}</dd>
          <dt>simulated cluster</dt>
          <dd data-testid="in-force-cluster">
            {inForce.clusterOn ? `--controllers=${inForce.controllers} --nodes=${inForce.nodes} --node-cpu=${inForce.nodeCpu} --node-memory=${inForce.nodeMemory} --kubelet-delay=${inForce.kubeletDelay} --clock-speed=${inForce.clockSpeed}` : 'off'}
          </dd>
        </dl>
      )}
    </section>
  );
}
