// "Connect kubectl": pairs this tab with `npm run bridge` so the real kubectl, helm and client
// libraries drive the cluster in this tab, then lists their requests live (what was asked, by
// which client, the answer's status and how long the tab took).
import { memo, useState, type FormEvent } from 'react';
import { DEFAULT_BRIDGE_PORT } from '../../hosts/bridge/protocol';
import type { BridgeState } from '../../hosts/bridge/page-relay';
import type { RelayedRequestEntry } from '../../hosts/bridge/request-log';
import { pageBridge, shortUserAgent, useBridgeLog, useBridgeState } from '../lib/page-bridge';
import './bridge-panel.css';

function StatusNote({ state }: { state: BridgeState }) {
  switch (state.phase) {
    case 'idle':
      return <p>Not connected: kubectl cannot reach this tab yet.</p>;
    case 'connecting':
      return <p aria-busy="true">Pairing with the bridge at {state.address}…</p>;
    case 'reconnecting':
      return <p aria-busy="true">The bridge at {state.address} went away: reconnecting (attempt {state.attempt})…</p>;
    case 'paired':
      return (
        <>
          <p className="bridge-ok">
            <strong>Connected.</strong> kubectl requests to {state.server} are answered by this tab.
          </p>
          <p>In a terminal:</p>
          <pre className="bridge-commands" data-testid="bridge-commands">{`export KUBECONFIG=${state.kubeconfig}\nkubectl get namespaces`}</pre>
        </>
      );
    case 'replaced':
      return <p className="bridge-warn">{capitalised(state.message)}.</p>;
    case 'failed':
      return <p className="bridge-bad">{capitalised(state.message)}.</p>;
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function outcome(entry: RelayedRequestEntry): string {
  if (entry.state === 'cancelled') return `${entry.status ?? ''} closed by client`.trim();
  if (entry.state === 'failed') return `failed: ${entry.error ?? ''}`;
  return entry.status === undefined ? '…' : String(entry.status);
}

function duration(entry: RelayedRequestEntry): string {
  if (entry.durationMs === undefined) return entry.state === 'streaming' ? 'streaming' : '…';
  return entry.durationMs < 1000 ? `${entry.durationMs} ms` : `${(entry.durationMs / 1000).toFixed(1)} s`;
}

/** The newest requests shown (the log keeps more; a longer table costs the tab layout time). */
const SHOWN_ROWS = 100;

/** One row; entries are replaced, never changed, so a row re-renders only when its request moved on. */
const RequestRow = memo(function RequestRow({ entry: e }: { entry: RelayedRequestEntry }) {
  return (
    <tr className={e.status !== undefined && e.status >= 400 ? 'bridge-error-row' : undefined}>
      <td>{new Date(e.startedAt).toLocaleTimeString()}</td>
      <td>{e.method}</td>
      <td title={e.path}>{e.path}</td>
      <td title={e.userAgent}>{shortUserAgent(e.userAgent)}</td>
      <td>{outcome(e)}</td>
      <td>{duration(e)}</td>
    </tr>
  );
});

function RequestRows({ entries }: { entries: readonly RelayedRequestEntry[] }) {
  if (entries.length === 0) return <p className="muted">No requests yet. They show here as kubectl sends them.</p>;
  return (
    <div className="table-scroll bridge-log">
      <table className="bridge-table">
        <thead>
          <tr>
            <th>TIME</th>
            <th>METHOD</th>
            <th>PATH</th>
            <th>CLIENT</th>
            <th>STATUS</th>
            <th>DURATION</th>
          </tr>
        </thead>
        <tbody>
          {entries
            .slice(-SHOWN_ROWS)
            .reverse()
            .map((e) => (
              <RequestRow key={e.id} entry={e} />
            ))}
        </tbody>
      </table>
    </div>
  );
}

export function BridgePanel({ apiBase }: { apiBase: string }) {
  const bridge = pageBridge(apiBase);
  const state = useBridgeState(bridge);
  const entries = useBridgeLog(bridge);
  const [address, setAddress] = useState('address' in state ? state.address : `127.0.0.1:${DEFAULT_BRIDGE_PORT}`);
  const [code, setCode] = useState('');
  const busy = state.phase === 'connecting';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    bridge.pair(address, code);
    setCode('');
  };
  return (
    <section aria-label="Connect kubectl" className="bridge-panel">
      <h2>Connect kubectl</h2>
      <p className="muted">Drive the cluster in this tab with the real kubectl, helm or any Kubernetes client, and watch their requests and field ownership here.</p>
      <ol className="bridge-steps">
        <li>
          In a terminal, in the playground's folder, run <code>npm run bridge</code>. It prints a pairing code.
        </li>
        <li>Enter its address and the code here:</li>
      </ol>
      <form className="bridge-form" onSubmit={submit}>
        <label>
          Bridge address
          <input value={address} onChange={(e) => setAddress(e.target.value)} size={18} spellCheck={false} />
        </label>
        <label>
          Pairing code
          <input value={code} onChange={(e) => setCode(e.target.value)} size={10} placeholder="1234-5678" inputMode="numeric" autoComplete="one-time-code" spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={busy || code.trim() === ''}>
          {state.phase === 'paired' ? 'Pair again' : 'Connect'}
        </button>
        {(state.phase === 'paired' || state.phase === 'connecting' || state.phase === 'reconnecting') && (
          <button type="button" onClick={() => bridge.disconnect()}>
            Disconnect
          </button>
        )}
      </form>
      <div role="status" aria-live="polite" data-testid="bridge-status" className="bridge-status">
        <StatusNote state={state} />
      </div>
      <h3>
        Requests from kubectl <small className="muted">({bridge.log.count} so far)</small>
      </h3>
      <RequestRows entries={entries} />
    </section>
  );
}
