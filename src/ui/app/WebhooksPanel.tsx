// Admission webhooks served by this tab: the learner writes a handler as a JavaScript function
// body, serves it at a path of the page's own origin (the Service Worker forwards the API
// server's AdmissionReviews for that URL here), creates the Validating/MutatingWebhookConfiguration
// pointing at it, and watches the calls arrive. Handlers keep serving on every other view; they
// stop when the learner stops them or closes the tab (then failurePolicy decides).
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { registerWebhookHandler } from '../../hosts/sw/page/webhook-handlers';
import { normalizeBase } from '../../hosts/sw/protocol';
import { configurationKind, configurationResource, EXAMPLES, webhookConfiguration, webhookName, type FailurePolicy, type WebhookExample, type WebhookKind } from '../lib/webhook-functions';
import { WebhookServing } from '../lib/webhook-serving';
import { useClient } from './client-context';
import { ErrorBox } from './ErrorBox';
import { WarningsList } from './Warnings';

// One per tab, outside React: handlers must outlive the panel when the learner goes elsewhere.
const serving = new WebhookServing(registerWebhookHandler);

interface Draft {
  kind: WebhookKind;
  name: string;
  path: string;
  resources: string;
  failurePolicy: FailurePolicy;
  timeoutSeconds: number;
  body: string;
}

function draftOf(example: WebhookExample, apiBase: string): Draft {
  const basePath = normalizeBase(new URL(apiBase, location.href).pathname);
  return { kind: example.kind, name: example.name, path: `${basePath}${example.path}`, resources: example.resources, failurePolicy: 'Fail', timeoutSeconds: 5, body: example.body };
}

type Outcome = { text: string; error?: unknown; warnings?: string[] } | undefined;

// The form as the learner left it, so a visit to another view does not lose their function.
let lastDraft: Draft | undefined;

export function WebhooksPanel({ apiBase }: { apiBase: string }) {
  const client = useClient();
  const state = useSyncExternalStore(serving.subscribe, serving.snapshot);
  const [draft, setDraftState] = useState<Draft>(() => lastDraft ?? draftOf(EXAMPLES[0]!, apiBase));
  const [outcome, setOutcome] = useState<Outcome>();
  const setDraft = (next: Draft) => {
    lastDraft = next;
    setDraftState(next);
  };
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const url = `${location.origin}${draft.path.startsWith('/') ? draft.path : `/${draft.path}`}`;
  const path = new URL(url).pathname;

  const serve = (e: FormEvent) => {
    e.preventDefault();
    try {
      serving.serve(path, draft.kind, draft.body);
      setOutcome({ text: `Serving ${url} from this tab.` });
    } catch (error) {
      setOutcome({ text: 'The function does not compile.', error: new Error(`${(error as Error).name}: ${(error as Error).message}`) });
    }
  };

  const createConfiguration = async () => {
    const config = webhookConfiguration({
      kind: draft.kind,
      name: draft.name,
      url,
      resources: draft.resources.split(',').map((r) => r.trim()).filter(Boolean),
      failurePolicy: draft.failurePolicy,
      timeoutSeconds: draft.timeoutSeconds,
    });
    const warnings: string[] = [];
    try {
      const target = { group: 'admissionregistration.k8s.io', version: 'v1', resource: configurationResource(draft.kind), namespaced: false };
      await client.apply(target, undefined, draft.name, JSON.stringify(config), { fieldManager: 'webhooks-panel', force: true, onWarnings: (w) => warnings.push(...w) });
      setOutcome({ text: `${configurationKind(draft.kind)} ${draft.name} applied: webhook "${webhookName(draft.name)}" calls ${url}.`, warnings });
    } catch (error) {
      setOutcome({ text: `${configurationKind(draft.kind)} ${draft.name} was not applied.`, error, warnings });
    }
  };

  return (
    <section aria-label="Webhooks" className="webhooks">
      <h2>Admission webhooks served by this page</h2>
      <p>
        A webhook whose <code>clientConfig.url</code> is on this page&apos;s origin ({location.origin}) is answered by the handler this tab serves for that path. The function below receives the AdmissionReview <code>request</code> and returns{' '}
        <code>{'{ allowed, status?: { code, message }, patch?: [JSON Patch ops], warnings?, auditAnnotations? }'}</code>. A handler that throws fails the call; with no handler open anywhere the call fails as an unreachable host. Either way the webhook&apos;s failurePolicy decides.
      </p>
      <div className="toolbar" role="group" aria-label="Examples">
        Examples:
        {EXAMPLES.map((ex) => (
          <button key={ex.name} type="button" onClick={() => setDraft(draftOf(ex, apiBase))}>
            {ex.title}
          </button>
        ))}
      </div>
      <form aria-label="Webhook handler" onSubmit={serve}>
        <div className="webhook-fields">
          <label>
            Kind
            <select value={draft.kind} onChange={(e) => set({ kind: e.target.value as WebhookKind })}>
              <option value="validating">validating</option>
              <option value="mutating">mutating</option>
            </select>
          </label>
          <label>
            Configuration name
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} spellCheck={false} />
          </label>
          <label>
            Path
            <input value={draft.path} onChange={(e) => set({ path: e.target.value })} spellCheck={false} />
          </label>
          <label>
            Resources (core group, v1)
            <input value={draft.resources} onChange={(e) => set({ resources: e.target.value })} spellCheck={false} />
          </label>
          <label>
            Failure policy
            <select value={draft.failurePolicy} onChange={(e) => set({ failurePolicy: e.target.value as FailurePolicy })}>
              <option value="Fail">Fail</option>
              <option value="Ignore">Ignore</option>
            </select>
          </label>
          <label>
            Timeout (seconds)
            <input type="number" min={1} max={30} value={draft.timeoutSeconds} onChange={(e) => set({ timeoutSeconds: Number(e.target.value) || 10 })} />
          </label>
        </div>
        <label>
          Function body (receives <code>request</code>)
          <textarea value={draft.body} onChange={(e) => set({ body: e.target.value })} rows={8} spellCheck={false} />
        </label>
        <div className="toolbar">
          <button type="submit" className="primary">
            Serve at {path}
          </button>
          <button type="button" onClick={() => void createConfiguration()}>
            Create configuration
          </button>
          <small className="muted">URL: {url}</small>
        </div>
      </form>
      <output data-testid="webhook-result">
        {outcome && <p>{outcome.text}</p>}
        <ErrorBox error={outcome?.error} />
        <WarningsList warnings={outcome?.warnings} />
      </output>
      <h3>Served by this tab</h3>
      {state.served.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ul aria-label="Served webhooks" className="served-webhooks">
          {state.served.map((s) => (
            <li key={s.path}>
              <code>{s.path}</code> ({s.kind}){' '}
              <button type="button" onClick={() => serving.stop(s.path)} aria-label={`Stop serving ${s.path}`}>
                Stop
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="toolbar">
        <h3>Recent calls</h3>
        <button type="button" onClick={() => serving.clearLog()} disabled={!state.log.length}>
          Clear
        </button>
      </div>
      <div className="table-scroll webhook-log">
        <table aria-label="Recent calls" data-testid="webhook-log">
          <thead>
            <tr>
              <th>TIME</th>
              <th>PATH</th>
              <th>REQUEST</th>
              <th>RESPONSE</th>
            </tr>
          </thead>
          <tbody>
            {state.log.map((e) => (
              <tr key={e.id}>
                <td>{e.time}</td>
                <td>{e.path}</td>
                <td>{e.request}</td>
                <td className={e.ok ? undefined : 'bad'}>{e.outcome}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
