// Compose any request and see the raw response as it streams (watches included), with the
// equivalent curl and kubectl commands. The page's identity (impersonation headers) rides along
// and shows in both commands; the response's Warning headers are listed as kubectl prints them.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { joinBase } from '../lib/api-paths';
import { statusLine } from '../lib/http-status';
import { curlCommand, fullPath, kubectlCommand, type ComposedRequest } from '../lib/commands';
import { parseWarningHeader } from '../lib/warnings';
import type { ConsoleRequest } from '../lib/routes';
import { recordInAddress } from './router';

const DEFAULTS = { method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: '', headers: 'Accept: application/json', body: '' } as const;
import { WarningsList } from './Warnings';

function parseHeaders(text: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) entries.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  // Entries, not assignments: a header typed as `__proto__` stays a header.
  return Object.fromEntries(entries);
}

export function RequestConsole({ apiBase, extraHeaders = {}, initial = {} }: { apiBase: string; extraHeaders?: Readonly<Record<string, string>>; initial?: ConsoleRequest }) {
  const [method, setMethod] = useState(initial.method ?? DEFAULTS.method);
  const [path, setPath] = useState(initial.path ?? DEFAULTS.path);
  const [query, setQuery] = useState(initial.query ?? DEFAULTS.query);
  const [headers, setHeaders] = useState(initial.headers ?? DEFAULTS.headers);
  const [body, setBody] = useState(initial.body ?? DEFAULTS.body);
  // The request being composed lives in the URL (fields left at their defaults stay out), so it
  // can be linked and survives a reload. Replaced, not pushed: typing must not fill the history.
  useEffect(() => {
    const request: ConsoleRequest = {};
    const fields = { method, path, query, headers, body };
    for (const key of Object.keys(fields) as Array<keyof typeof fields>) if (fields[key] !== DEFAULTS[key]) request[key] = fields[key];
    recordInAddress({ view: 'console', request });
  }, [method, path, query, headers, body]);
  const [output, setOutput] = useState('');
  const [running, setRunning] = useState(false);
  const [warnings, setWarnings] = useState<string[]>([]);
  const abort = useRef<AbortController | null>(null);

  const req: ComposedRequest = { method, path: query ? `${path}?${query.replace(/^\?/, '')}` : path, headers: { ...extraHeaders, ...parseHeaders(headers) }, body: body || undefined };
  const server = /^https?:/.test(apiBase) ? apiBase : new URL(apiBase, location.href).href;
  const kubectl = kubectlCommand(req);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    abort.current?.abort();
    const controller = (abort.current = new AbortController());
    setRunning(true);
    setOutput('');
    setWarnings([]);
    try {
      const res = await fetch(joinBase(apiBase, fullPath(req)), { method, headers: req.headers, body: method === 'GET' || method === 'DELETE' ? undefined : req.body, signal: controller.signal });
      setWarnings(parseWarningHeader(res.headers.get('Warning')));
      let text = `${statusLine(res.status, res.statusText)}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n`;
      setOutput(text);
      const reader = res.body?.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        setOutput(text);
      }
    } catch (err) {
      if (!controller.signal.aborted) setOutput((o) => `${o}\nrequest failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <section aria-label="Request console" className="console">
      <form onSubmit={send}>
        <div className="toolbar">
          <select aria-label="Method" value={method} onChange={(e) => setMethod(e.target.value)}>
            {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
          </select>
          <input aria-label="Path" value={path} onChange={(e) => setPath(e.target.value)} size={50} />
          <input aria-label="Query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="watch=1&resourceVersion=0" size={30} />
          <button type="submit">Send</button>
          <button type="button" disabled={!running} onClick={() => abort.current?.abort()}>Stop</button>
        </div>
        <textarea aria-label="Headers" value={headers} onChange={(e) => setHeaders(e.target.value)} rows={3} />
        {Object.keys(extraHeaders).length > 0 && (
          <p data-testid="identity-headers">
            Also sent (the page's identity): <code>{Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}`).join('; ')}</code>
          </p>
        )}
        <textarea aria-label="Body" value={body} onChange={(e) => setBody(e.target.value)} rows={8} placeholder="request body (JSON or YAML)" />
      </form>
      <h3>curl</h3>
      <pre data-testid="curl">{curlCommand(req, server)}</pre>
      <h3>kubectl</h3>
      <pre data-testid="kubectl">{kubectl.command ?? `(no kubectl equivalent: ${kubectl.note})`}</pre>
      {kubectl.command && kubectl.note && <p>{kubectl.note}</p>}
      <h3>Response {running && <small aria-busy="true">streaming…</small>}</h3>
      <WarningsList warnings={warnings} />
      <pre data-testid="response">{output}</pre>
    </section>
  );
}
