/// <reference types="vite/client" />
// The page for the browser host: a bar saying whether the API is up and where its state lives
// (persistent IndexedDB or in-memory fallback), storage errors and export/import/reset, then the
// playground UI once the worker answers. Tests reach the host through `window.kubePlayground`.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostStatus } from '../hosts/sw/protocol';
import { adminCall, connectWorker, hostRevision, hostStatus } from '../hosts/sw/page-client';
import { App as Playground } from './app/App';
import { scheduleInFrame } from './lib/watch-store';

const BASE = import.meta.env.BASE_URL;
/** How often the bar's revision is brought up to date while the tab is visible. */
const REVISION_POLL_MS = 2000;
const ready = connectWorker(BASE);
(window as unknown as { kubePlayground: unknown }).kubePlayground = { base: BASE, ready };

function StatusLine({ status, error }: { status?: HostStatus; error?: string }) {
  if (error) return <p role="alert" className="error">API unavailable: {error}</p>;
  if (!status) return <p aria-busy="true">Starting the API…</p>;
  return (
    <>
      <p data-testid="status" className="host-status">
        API ready · storage: <strong data-testid="mode">{status.mode === 'persistent' ? 'persistent (IndexedDB)' : 'in memory — not persistent'}</strong> · revision <LiveRevision initial={status.revision} />
      </p>
      {status.storageError && <p role="alert" className="error">Storage problem: {status.storageError}</p>}
    </>
  );
}

/**
 * The store's revision, kept current: writes from this tab, other tabs and kubectl-style clients
 * all move it. Its own state, so a poll re-renders only this text; applied through the page's
 * frame scheduler, so it joins the frame's one React commit instead of adding another.
 */
function LiveRevision({ initial }: { initial: string }) {
  const [revision, setRevision] = useState(initial);
  useEffect(() => setRevision(initial), [initial]);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      hostRevision(BASE).then(
        (next) => scheduleInFrame(() => setRevision(next)),
        // The next poll tries again; failed API requests are shown where they are made.
        () => undefined,
      );
    }, REVISION_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  return <>{revision}</>;
}

function App() {
  const [status, setStatus] = useState<HostStatus>();
  const [error, setError] = useState<string>();
  const refresh = () => hostStatus(BASE).then(setStatus, (e: Error) => setError(e.message));
  useEffect(() => {
    ready.then(setStatus, (e: Error) => setError(e.message));
  }, []);
  const reset = async () => {
    if (confirm('Delete every object and start an empty cluster?')) setStatus((await adminCall(BASE, 'reset')) as HostStatus);
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    const result = await adminCall(BASE, 'import', await file.text());
    alert(JSON.stringify(result, null, 2));
    await refresh();
  };
  return (
    <div className="page">
      <div className="host-bar" role="region" aria-label="Browser host">
        <StatusLine status={status} error={error} />
        <a href={`${BASE}__playground/export`} download="cluster.yaml">Export (YAML)</a>
        <label>Import <input type="file" accept=".yaml,.yml" onChange={(e) => void importFile(e.target.files?.[0])} /></label>
        <button type="button" onClick={() => void reset()}>Reset cluster</button>
        <button type="button" onClick={() => void refresh()}>Refresh status</button>
      </div>
      {status && <Playground apiBase={BASE} />}
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
