// One request of a lesson step, as the learner will send it: method and path (editable), the
// content type, the body in an editable text area, and a Send button; the API's answer below.
import { useEffect, useState } from 'react';
import type { LessonAnswer, LessonRequest } from '../../lessons/types';
import { statusLine } from '../../lib/http-status';
import { watchEvents } from '../../lessons/watch-answers';

export function RequestCard({ request, index, onSend, answer }: { request: LessonRequest; index: number; onSend(req: LessonRequest): Promise<void>; answer?: LessonAnswer }) {
  const [path, setPath] = useState(request.path);
  const [body, setBody] = useState(request.body ?? '');
  const [sending, setSending] = useState(false);
  useEffect(() => {
    setPath(request.path);
    setBody(request.body ?? '');
  }, [request]);
  const send = async () => {
    setSending(true);
    try {
      await onSend({ ...request, path, ...(request.body !== undefined ? { body } : {}) });
    } finally {
      setSending(false);
    }
  };
  const label = `Request ${index + 1}`;
  return (
    <section className="request-card" aria-label={label}>
      <div className="request-line">
        <span className={`method method-${request.method.toLowerCase()}`}>{request.method}</span>
        <input aria-label={`${label} path`} value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
      </div>
      {request.contentType && (
        <p className="content-type">
          Content-Type: <code>{request.contentType}</code>
        </p>
      )}
      {request.body !== undefined && (
        <textarea
          aria-label={`${label} body`}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void send();
            }
          }}
          rows={Math.min(16, Math.max(3, body.split('\n').length + 1))}
          spellCheck={false}
        />
      )}
      <div className="request-actions">
        <button type="button" className="primary" onClick={() => void send()} disabled={sending}>
          Send
        </button>
        {sending && /[?&]watch=(1|true)/.test(path) && <span className="muted">Watching until timeoutSeconds ends the stream…</span>}
        {answer && (
          <span className={`answer-status ${answer.status < 300 ? 'ok' : 'refused'}`} data-testid="answer-status">
            {statusLine(answer.status, '')}
          </span>
        )}
        {answer && <WatchSummary body={answer.body} />}
      </div>
      {answer && (
        <details className="answer">
          <summary>Answer</summary>
          <pre>{pretty(answer.body)}</pre>
        </details>
      )}
    </section>
  );
}

/** One JSON document indented; a watch's stream (one event per line) stays one event per line. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** For a watch's answer, its events in order (a 410 comes as an ERROR event inside a 200). */
function WatchSummary({ body }: { body: string }) {
  if (body.trimStart().startsWith('{"kind"')) return null;
  const events = watchEvents(body);
  if (!events.length) return null;
  return (
    <span className="watch-summary" data-testid="watch-summary">
      Stream: {events.map((e) => (e.type === 'ERROR' ? `ERROR ${e.code ?? ''}`.trim() : e.type === 'BOOKMARK' ? `BOOKMARK @${e.resourceVersion ?? '?'}` : `${e.type} ${e.name ?? ''}`.trim())).join(' → ')}
    </span>
  );
}
