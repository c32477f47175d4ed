// The write actions for one object, each with its own editor: Apply (server-side, force toggle; a
// dry-run apply first, conflicts open the preview), Dry-run, Create, Replace, Patch (merge / JSON
// / strategic) — all as the field manager chosen from a list or typed — and Delete with a
// propagation policy, after a confirmation. Every response is shown with its status; errors with
// the Status message and causes. Ctrl/Cmd+Enter sends the chosen action and Ctrl/Cmd+Shift+Enter
// its dry run, from the editor or any field of this section.
import { useMemo, useState } from 'react';
import { parse, stringify } from 'yaml';
import type { PatchType, PropagationPolicy, WarningsListener } from '../lib/api';
import { KubeApiError, type StatusCause } from '../lib/api-errors';
import type { ResourceRef } from '../lib/api-paths';
import { dropAtPath, setFromLive } from '../lib/config-edit';
import { conflictMarks } from '../lib/conflict-marks';
import { toStableYaml } from '../lib/ownership';
import type { KubeObject } from '../lib/watch';
import { useClient } from './client-context';
import { ConfirmDialog } from './ConfirmDialog';
import { ConflictPreview } from './ConflictPreview';
import { DiffView } from './DiffView';
import { ErrorBox } from './ErrorBox';
import { isRunShortcut, MonacoEditor } from './MonacoEditor';
import { useSchemaLookup } from './schema-context';
import { WarningsList } from './Warnings';

type Mode = 'apply' | 'create' | 'replace' | 'patch';
const MODES: ReadonlyArray<[Mode, string]> = [['apply', 'Apply'], ['create', 'Create'], ['replace', 'Replace'], ['patch', 'Patch']];
const PATCH_EXAMPLES: Record<PatchType, string> = {
  merge: '# JSON merge patch (RFC 7386), in YAML or JSON: null removes a field\nmetadata:\n  labels:\n    tier: web\n',
  json: '[\n  { "op": "add", "path": "/metadata/labels/tier", "value": "web" }\n]\n',
  strategic: '# strategic merge patch: lists merge by their keys (containers by name)\nmetadata:\n  labels:\n    tier: web\n',
};

export interface WriteActionsProps {
  target: ResourceRef;
  namespace?: string;
  name: string;
  live?: KubeObject;
  /** A configuration to start from: the live object without server fields, or a skeleton. */
  /**
   * The text "Start from the live object" (or a skeleton) puts in the editor. A function: writing a
   * 2,000-line object as YAML costs tens of milliseconds, paid only when the text is wanted, not
   * on every render of the object view (Apply, the default, starts empty).
   */
  starting(): string;
  /** Managers already on the object, offered in the field manager list. */
  managers: readonly string[];
  conflicts: readonly StatusCause[];
  onConflicts(causes: StatusCause[]): void;
  onWritten(): void;
}

interface Result {
  text: string;
  error?: unknown;
  busy?: boolean;
  /** The Warning headers of the response, shown beside it. */
  warnings?: string[];
  /** A dry run's answer against the live object, shown as a diff. */
  diff?: { before: string; after: string };
  /** What to do next, after the configuration was changed for the learner. */
  next?: string;
}

export function WriteActions({ target, namespace, name, live, starting, managers, conflicts, onConflicts, onWritten }: WriteActionsProps) {
  const client = useClient();
  const schemas = useSchemaLookup();
  const [mode, setMode] = useState<Mode>('apply');
  const [patchType, setPatchType] = useState<PatchType>('merge');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [manager, setManager] = useState('playground');
  const [force, setForce] = useState(false);
  const [policy, setPolicy] = useState<PropagationPolicy>('Background');
  const [result, setResult] = useState<Result>({ text: '' });
  const [confirmDelete, setConfirmDelete] = useState(false);

  const editorKey = mode === 'patch' ? `patch-${patchType}` : mode;
  const text = texts[editorKey] ?? (mode === 'patch' ? PATCH_EXAMPLES[patchType] : mode === 'apply' ? '' : starting());
  const setText = (t: string) => setTexts((all) => ({ ...all, [editorKey]: t }));
  // The 409's fields found in the learner's own text, marked before anything more is sent.
  const marks = useMemo(() => (mode === 'apply' && conflicts.length ? conflictMarks(text, live, conflicts) : []), [mode, text, live, conflicts]);

  const run = async (label: string, action: (onWarnings: WarningsListener) => Promise<unknown>, opts: { diff?: boolean } = {}) => {
    setResult({ text: `${label}…`, busy: true });
    const warnings: string[] = [];
    const onWarnings: WarningsListener = (w) => warnings.push(...w);
    try {
      const out = await action(onWarnings);
      // A dry run is read against the live object: the diff says what the write would change.
      if (opts.diff && out !== null && typeof out === 'object') {
        setResult({ text: `${label}: OK (nothing was stored)`, warnings, diff: { before: live ? toStableYaml(live) : '', after: toStableYaml(out) } });
        return true;
      }
      setResult({ text: `${label}: OK\n${out === undefined ? '' : stringify(out)}`, warnings });
      onWritten();
      return true;
    } catch (e) {
      setResult({ text: `${label} failed`, error: e, warnings });
      return false;
    }
  };
  const apply = (withForce: boolean, dryRun: boolean, onWarnings?: WarningsListener) => client.apply(target, namespace, name, text, { fieldManager: manager, force: withForce, dryRun, onWarnings });
  const applyWithPreview = async () => {
    onConflicts([]);
    if (!force) {
      setResult({ text: 'Checking for conflicts with a dry run…', busy: true });
      try {
        await apply(false, true);
      } catch (e) {
        if (e instanceof KubeApiError && e.code === 409 && e.causes.length) {
          onConflicts(e.causes);
          setResult({ text: 'The dry run found conflicts; nothing was changed.', error: e });
          return;
        }
        // Any other failure is reported by the real request below, with its own status.
      }
    }
    await run('Apply', (w) => apply(force, false, w));
  };
  /** Changes the configuration as a way out of a conflict, then says what is left to do. */
  const editConfig = (edit: (c: unknown) => unknown, done: string) => {
    setText(stringify(edit(parse(text))));
    onConflicts([]);
    // The old 409 is answered: its box goes, and the next step is said instead.
    setResult({ text: '', next: `${done} Nothing has been sent yet: now press Apply (Ctrl+Enter) to send it.` });
  };
  const write = () => {
    if (mode === 'apply') return void applyWithPreview();
    // Every write names its field manager (as kubectl's kubectl-create, kubectl-edit, ... do), so
    // the ownership overlay shows the name chosen here rather than one made from the browser's
    // User-Agent ("Mozilla").
    if (mode === 'create') return void run('Create', (onWarnings) => client.create(target, namespace, text, { fieldManager: manager, onWarnings }));
    if (mode === 'replace') return void run('Replace', (onWarnings) => client.replace(target, namespace, name, text, { fieldManager: manager, onWarnings }));
    // Merge and strategic patches are JSON on the wire; YAML is accepted here for convenience.
    const body = patchType === 'json' ? text : JSON.stringify(parse(text));
    return void run(`Patch (${patchType})`, (onWarnings) => client.patch(target, namespace, name, patchType, body, { fieldManager: manager, onWarnings }));
  };
  /** The chosen action with dryRun=All: the server runs every step of the write but stores nothing. */
  const dryRun = () => {
    const options = (onWarnings: WarningsListener) => ({ fieldManager: manager, dryRun: true, onWarnings });
    if (mode === 'apply') return void dryRunApply();
    if (mode === 'create') return void run('Dry-run create', (w) => client.create(target, namespace, text, options(w)), { diff: true });
    if (mode === 'replace') return void run('Dry-run replace', (w) => client.replace(target, namespace, name, text, options(w)), { diff: true });
    const body = patchType === 'json' ? text : JSON.stringify(parse(text));
    return void run(`Dry-run patch (${patchType})`, (w) => client.patch(target, namespace, name, patchType, body, options(w)), { diff: true });
  };
  /** A dry-run apply: its conflicts mark the editor's lines and open the ways out, as Apply's check does. */
  const dryRunApply = async () => {
    onConflicts([]);
    const ok = await run('Dry-run apply', (w) => apply(force, true, w), { diff: true });
    if (ok) return;
    try {
      await apply(force, true);
    } catch (e) {
      if (e instanceof KubeApiError && e.code === 409 && e.causes.length) onConflicts(e.causes);
    }
  };
  // One request at a time: a shortcut pressed while one is on its way is ignored, as the button is.
  const shortcutRun = () => !result.busy && write();
  const shortcutDryRun = () => !result.busy && dryRun();

  return (
    <section
      aria-label="Write"
      className="write-actions"
      onKeyDown={(e) => {
        // The editor handles its own shortcuts (and marks the event handled); this covers the other fields.
        if (e.defaultPrevented) return;
        const action = isRunShortcut(e, false) ? shortcutRun : isRunShortcut(e, true) ? shortcutDryRun : undefined;
        if (!action) return;
        e.preventDefault();
        action();
      }}
    >
      <div role="radiogroup" aria-label="Action" className="toolbar">
        {MODES.map(([m, label]) => (
          <label key={m}>
            <input type="radio" name="write-mode" value={m} checked={mode === m} onChange={() => setMode(m)} /> {label}
          </label>
        ))}
        {mode === 'patch' && (
          <label>
            patch type{' '}
            <select value={patchType} onChange={(e) => setPatchType(e.target.value as PatchType)}>
              <option value="merge">merge (application/merge-patch+json)</option>
              <option value="json">JSON (application/json-patch+json)</option>
              <option value="strategic">strategic (application/strategic-merge-patch+json)</option>
            </select>
          </label>
        )}
        {mode !== 'patch' && (
          <button type="button" onClick={() => setText(starting())}>
            {live ? 'Start from the live object' : 'Start from a skeleton'}
          </button>
        )}
      </div>
      {marks.length > 0 && (
        <ul className="conflict-marks" aria-label="Conflicts in your configuration" data-testid="conflict-marks">
          {marks.map((m) => (
            <li key={`${m.line}-${m.field}`}>
              line {m.line}, <code>{m.field}</code>: {m.message}
            </li>
          ))}
        </ul>
      )}
      <MonacoEditor key={editorKey} label={`${MODES.find(([m]) => m === mode)![1]} ${mode === 'patch' ? `(${patchType}) ` : ''}body (YAML)`} value={text} onChange={setText} schemas={mode === 'patch' ? undefined : schemas} onRun={shortcutRun} onDryRun={shortcutDryRun} marks={marks} />
      <div className="toolbar">
        <label>
          Field manager <input list="managers" value={manager} onChange={(e) => setManager(e.target.value)} />
        </label>
        <datalist id="managers">{managers.map((m) => <option key={m} value={m} />)}</datalist>
        {mode === 'apply' && (
          <label>
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> force
          </label>
        )}
        <button type="button" onClick={dryRun} disabled={result.busy} aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter" title="Ctrl+Shift+Enter (⌘⇧↵)">
          Dry-run
        </button>
        <button type="button" className="primary" onClick={write} disabled={result.busy} aria-keyshortcuts="Control+Enter Meta+Enter" title="Ctrl+Enter (⌘↵)">
          {MODES.find(([m]) => m === mode)![1]}
        </button>
        <small className="shortcut-hint" aria-hidden="true">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> {MODES.find(([m]) => m === mode)![1].toLowerCase()} · <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Enter</kbd> dry-run
        </small>
        <span className="spacer" />
        <label>
          propagation{' '}
          <select value={policy} onChange={(e) => setPolicy(e.target.value as PropagationPolicy)}>
            {['Background', 'Foreground', 'Orphan'].map((p) => <option key={p}>{p}</option>)}
          </select>
        </label>
        <button type="button" disabled={!live} onClick={() => setConfirmDelete(true)}>Delete</button>
      </div>
      {confirmDelete && (
        <ConfirmDialog
          title={`Delete ${name}?`}
          confirmLabel={`Delete ${name}`}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void run('Delete', (onWarnings) => client.delete(target, namespace, name, { propagationPolicy: policy, onWarnings }));
          }}
        >
          <p>
            This sends <code>DELETE</code> for {namespace ? `${namespace}/` : ''}
            {name} with propagationPolicy={policy}. It cannot be undone (objects that name it as their owner are {policy === 'Orphan' ? 'kept, orphaned' : 'deleted too'}).
          </p>
        </ConfirmDialog>
      )}
      {conflicts.length > 0 && (
        <ConflictPreview
          manager={manager}
          causes={conflicts}
          onForce={() => void run('Apply (force)', (w) => apply(true, false, w)).then((ok) => ok && onConflicts([]))}
          onDropFields={(fields) => editConfig((c) => fields.reduce((acc, f) => dropAtPath(acc, f), c), `Removed ${fields.join(', ')} from your configuration: the live values stay, owned by the other manager.`)}
          onUseLiveValues={(fields) => editConfig((c) => fields.reduce((acc, f) => setFromLive(acc, live, f), c), `Your configuration now has the live values of ${fields.join(', ')}: applying them makes you a co-owner.`)}
        />
      )}
      <output aria-busy={result.busy ? 'true' : undefined} data-testid="write-result">
        {result.next && (
          <p className="next-step" role="status" data-testid="next-step">
            {result.next}
          </p>
        )}
        <ErrorBox error={result.error} />
        <WarningsList warnings={result.warnings} />
        {result.text && <pre>{result.text}</pre>}
        {result.diff && <DiffView label="What the dry run would change" before={result.diff.before} after={result.diff.after} beforeLabel={live ? 'Live object' : '(no object yet)'} afterLabel="After the write (dry-run answer)" />}
      </output>
    </section>
  );
}
