/// <reference types="vite/client" />
// A minimal page for the browser host: whether the API is up, where its state lives (persistent
// IndexedDB or in-memory fallback), storage errors, a request box, and export/import/reset. The
// full UI comes later; tests reach the host through `window.kubePlayground`.
import { StrictMode, useEffect, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostStatus } from '../hosts/sw/protocol';
import { adminCall, connectWorker, hostStatus } from '../hosts/sw/page-client';
import { App as Playground } from './app/App';

const BASE = import.meta.env.BASE_URL;
const ready = connectWorker(BASE);
(window as unknown as { kubePlayground: unknown }).kubePlayground = { base: BASE, ready };

function StatusLine({ status, error }: { status?: HostStatus; error?: string }) {
  if (error) return <p role="alert" className="error">API unavailable: {error}</p>;
  if (!status) return <p>Starting the API…</p>;
  return (
    <>
      <p data-testid="status">
        API ready · storage: <strong data-testid="mode">{status.mode === 'persistent' ? 'persistent (IndexedDB)' : 'in memory — not persistent'}</strong> · revision {status.revision}
      </p>
      {status.storageError && <p role="alert" className="error">Storage problem: {status.storageError}</p>}
    </>
  );
}

function RequestBox() {
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('api/v1/namespaces');
  const [body, setBody] = useState('');
  const [output, setOutput] = useState('');
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const res = await fetch(`${BASE}${path.replace(/^\//, '')}`, {
      method,
      headers: body ? { 'Content-Type': body.trimStart().startsWith('{') ? 'application/json' : 'application/yaml' } : undefined,
      body: method === 'GET' ? undefined : body,
    });
    setOutput(`${res.status} ${res.statusText}\n${await res.text()}`);
  };
  return (
    <form onSubmit={send}>
      <select value={method} onChange={(e) => setMethod(e.target.value)}>
        {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
      </select>
      <input value={path} onChange={(e) => setPath(e.target.value)} size={60} aria-label="path" />
      <button type="submit">Send</button>
      <br />
      <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={6} cols={80} aria-label="body" placeholder="request body (JSON or YAML)" />
      <pre>{output}</pre>
    </form>
  );
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
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '1rem' }}>
      <h1>kube-playground</h1>
      <StatusLine status={status} error={error} />
      <p>
        <a href={`${BASE}__playground/export`} download="cluster.yaml">Export (YAML)</a>{' '}
        <label>Import: <input type="file" accept=".yaml,.yml" onChange={(e) => void importFile(e.target.files?.[0])} /></label>{' '}
        <button type="button" onClick={() => void reset()}>Reset cluster</button>{' '}
        <button type="button" onClick={() => void refresh()}>Refresh status</button>
      </p>
      <details>
        <summary>Raw request</summary>
        <RequestBox />
      </details>
      {status && <Playground apiBase={BASE} />}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
