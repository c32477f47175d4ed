/// <reference types="vite/client" />
// The page for the browser host: a bar saying whether the API is up and where its state lives
// (persistent IndexedDB or in-memory fallback), storage errors and export/import/reset, then the
// playground UI once the worker answers. Tests reach the host through `window.kubePlayground`.
import { ConfirmDialog } from './app/ConfirmDialog';
import { lazy, StrictMode, Suspense, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { HostStatus } from '../hosts/sw/protocol';
import { adminCall, connectWorker, hostRevision, hostStatus } from '../hosts/sw/page/page-client';
import { App as Playground } from './app/App';
import { ImportResultDialog, type ImportReport } from './app/ImportResultDialog';
import { scheduleInFrame } from './lib/watch-store';
import { pageBridge } from './lib/page-bridge';
import type { ViewState } from './lib/routes';
import { navigate, useRoute } from './app/router';

// Scenario links are opened and made rarely: their dialogs (and the YAML reader) load on demand.
const OpenScenarioDialog = lazy(() => import('./app/ScenarioDialogs').then((m) => ({ default: m.OpenScenarioDialog })));
const ShareScenarioDialog = lazy(() => import('./app/ScenarioDialogs').then((m) => ({ default: m.ShareScenarioDialog })));

const BASE = import.meta.env.BASE_URL;
/** How often the bar's revision is brought up to date while the tab is visible. */
const REVISION_POLL_MS = 2000;
const ready = connectWorker(BASE);
// A reload keeps serving kubectl: the tab's bridge pairing (if any) resumes once the API is up.
void ready.then(() => pageBridge(BASE).resumeSaved(), () => undefined);
(window as unknown as { kubePlayground: unknown }).kubePlayground = { base: BASE, ready };

type StorageState = Pick<HostStatus, 'mode' | 'storageError'>;

function StatusLine({ status, error, onStorage, continueInMemory, onNewHistory }: { status?: HostStatus; error?: string; onStorage: (s: StorageState) => void; continueInMemory: () => void; onNewHistory: () => void }) {
  if (error) return <p role="alert" className="error">API unavailable: {error}</p>;
  if (!status) return <p aria-busy="true">Starting the API…</p>;
  return (
    <>
      <p data-testid="status" className="host-status">
        API ready · storage: <strong data-testid="mode">{status.mode === 'persistent' ? 'persistent (IndexedDB)' : 'in memory — not persistent'}</strong> · revision <LiveRevision initial={status.revision} storage={status} onStorage={onStorage} onNewHistory={onNewHistory} />
      </p>
      {status.storageError && (
        <p role="alert" className="error" data-testid="storage-error">
          Storage problem: {status.storageError}
          {status.mode === 'persistent' && (
            // Writes fail until storage has room again; going on in memory keeps every object.
            <button type="button" onClick={continueInMemory}>
              Continue in memory (not persistent)
            </button>
          )}
        </p>
      )}
    </>
  );
}

/**
 * The store's revision, kept current: writes from this tab, other tabs and kubectl-style clients
 * all move it. Its own state, so a poll re-renders only this text; applied through the page's
 * frame scheduler, so it joins the frame's one React commit instead of adding another. The same
 * poll reports a storage failure (a full quota) or a change of storage mode to the bar.
 */
function LiveRevision({ initial, storage, onStorage, onNewHistory }: { initial: string; storage: StorageState; onStorage: (s: StorageState) => void; onNewHistory: () => void }) {
  const [revision, setRevision] = useState(initial);
  useEffect(() => setRevision(initial), [initial]);
  // The poll's callback reads the latest shown state without restarting the timer.
  const shown = useRef({ revision, storage, onStorage, onNewHistory });
  shown.current = { revision, storage, onStorage, onNewHistory };
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      hostRevision(BASE).then(
        (next) =>
          scheduleInFrame(() => {
            const { revision: before, storage: was, onStorage: report, onNewHistory: reread } = shown.current;
            setRevision(next.revision);
            // Revisions only grow within one history: a lower one means the cluster was reset or
            // replaced (here or in another tab), and every open view must read it again.
            if (/^[0-9]+$/.test(before) && /^[0-9]+$/.test(next.revision) && BigInt(next.revision) < BigInt(before)) reread();
            if (next.mode !== was.mode || next.storageError !== was.storageError) report({ mode: next.mode, storageError: next.storageError });
          }),
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
  // Bumped whenever the cluster behind the views is replaced (reset, import, a reset seen from
  // another tab): the playground is mounted anew, so no view keeps showing the old cluster.
  const [clusterEpoch, setClusterEpoch] = useState(0);
  const [confirmReset, setConfirmReset] = useState(false);
  const reread = () => setClusterEpoch((n) => n + 1);
  const [importReport, setImportReport] = useState<ImportReport>();
  // A `#/scenario/…` link being opened (asked about first), and whether the share dialog is open.
  // A scenario link pasted into a tab that is already open arrives as a change of route.
  const route = useRoute();
  const scenario = route.view === 'scenario' ? route.data : undefined;
  const [sharing, setSharing] = useState<{ lesson?: string }>();
  /** Leaves the scenario link without a history entry: Back must not ask again. */
  const leaveScenario = (next: ViewState) => navigate(next, { replace: true });
  const scenarioOpened = async (result: ImportReport, lesson: string | undefined) => {
    await refresh();
    reread();
    leaveScenario(lesson ? { view: 'lesson', lesson, step: 1 } : { view: 'home' });
    // Said only when something did not come back; a clean open shows the scenario itself.
    if (result.failed.length) setImportReport(result);
  };
  const share = () => setSharing({ lesson: route.view === 'lesson' ? route.lesson : undefined });
  const refresh = () => hostStatus(BASE).then(setStatus, (e: Error) => setError(e.message));
  useEffect(() => {
    ready.then(setStatus, (e: Error) => setError(e.message));
  }, []);
  const onStorage = (storage: StorageState) => setStatus((s) => (s ? { ...s, ...storage } : s));
  const continueInMemory = async () => {
    try {
      setStatus((await adminCall(BASE, 'memory')) as HostStatus);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const reset = async () => {
    setConfirmReset(false);
    setStatus((await adminCall(BASE, 'reset')) as HostStatus);
    reread();
  };
  const importFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    const result = (await adminCall(BASE, 'import', await file.text())) as ImportReport;
    // The same file can be imported again later: the input only reports changes.
    input.value = '';
    await refresh();
    reread();
    setImportReport(result);
  };
  return (
    <div className="page">
      <div className="host-bar" role="region" aria-label="Browser host">
        <StatusLine status={status} error={error} onStorage={onStorage} continueInMemory={() => void continueInMemory()} onNewHistory={reread} />
        <a href={`${BASE}__playground/export`} download="cluster.yaml">Export (YAML)</a>
        <label className="button file-button">Import (YAML)… <input className="sr-only" type="file" accept=".yaml,.yml" onChange={(e) => void importFile(e.target)} /></label>
        <button type="button" onClick={share}>Share this cluster as a link</button>
        <button type="button" onClick={() => setConfirmReset(true)}>Reset cluster</button>
        <button type="button" onClick={() => void refresh()}>Refresh status</button>
      </div>
      {status && <Playground key={clusterEpoch} apiBase={BASE} />}
      {confirmReset && (
        <ConfirmDialog title="Reset the cluster?" confirmLabel="Delete everything" onCancel={() => setConfirmReset(false)} onConfirm={() => void reset()}>
          <p>Every object goes, and the cluster starts again empty, with only what a new cluster has. Export it first to keep a copy.</p>
        </ConfirmDialog>
      )}
      {importReport && <ImportResultDialog report={importReport} onClose={() => setImportReport(undefined)} />}
      <Suspense fallback={null}>
        {status && scenario !== undefined && <OpenScenarioDialog base={BASE} data={scenario} onOpened={(r, lesson) => void scenarioOpened(r, lesson)} onCancel={() => leaveScenario({ view: 'home' })} />}
        {sharing && <ShareScenarioDialog base={BASE} lesson={sharing.lesson} onClose={() => setSharing(undefined)} />}
      </Suspense>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
