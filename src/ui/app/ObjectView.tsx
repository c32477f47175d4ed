// One object: live YAML with the ownership overlay (refreshed from a watch on that name), the
// editor, and the write actions. Apply first runs a dry-run apply; a conflict opens the preview.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { parse, stringify } from 'yaml';
import type { PropagationPolicy } from '../lib/api';
import { KubeApiError, type StatusCause } from '../lib/api-errors';
import type { ResourceRef } from '../lib/api-paths';
import { dropAtPath, setFromLive } from '../lib/config-edit';
import { conflictLines, ownershipView } from '../lib/ownership';
import { useClient } from './client-context';
import { ConflictPreview } from './ConflictPreview';
import { ErrorBox } from './ErrorBox';
import { MonacoEditor } from './MonacoEditor';
import { OwnershipGutter } from './OwnershipGutter';

export function ObjectView({ target, namespace, name }: { target: ResourceRef; namespace?: string; name: string }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const key = ['object', client.apiBase, target.group, target.version, target.resource, namespace ?? '', name];
  const object = useQuery({ queryKey: key, queryFn: () => client.get(target, namespace, name) });
  const [showRaw, setShowRaw] = useState(false);
  const [config, setConfig] = useState('');
  const [manager, setManager] = useState('playground');
  const [force, setForce] = useState(false);
  const [policy, setPolicy] = useState<PropagationPolicy>('Background');
  const [result, setResult] = useState<{ text: string; error?: unknown; busy?: boolean }>({ text: '' });
  const [conflicts, setConflicts] = useState<StatusCause[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        for await (const _ of client.watch(target, { namespace, resourceVersion: undefined, signal: controller.signal, onResourceVersion: () => undefined }))
          void queryClient.invalidateQueries({ queryKey: key });
      } catch (e) {
        if (!controller.signal.aborted) setResult({ text: 'the live watch stopped', error: e });
      }
    })();
    return () => controller.abort();
  }, [client, target.group, target.version, target.resource, namespace, name]);

  const view = useMemo(() => (object.data ? ownershipView(object.data, { showManagedFields: showRaw }) : undefined), [object.data, showRaw]);
  const marked = useMemo(() => (view ? conflictLines(view, conflicts) : []), [view, conflicts]);

  const run = async (label: string, action: () => Promise<unknown>) => {
    setResult({ text: `${label}…`, busy: true });
    try {
      const out = await action();
      setResult({ text: `${label}: OK\n${stringify(out)}` });
      void queryClient.invalidateQueries({ queryKey: key });
    } catch (e) {
      setResult({ text: `${label} failed`, error: e });
    }
  };
  const apply = (withForce: boolean, dryRun: boolean) => client.apply(target, namespace, name, config, { fieldManager: manager, force: withForce, dryRun });
  const applyWithPreview = async () => {
    setConflicts([]);
    if (!force) {
      try {
        await apply(false, true);
      } catch (e) {
        if (e instanceof KubeApiError && e.code === 409 && e.causes.length) {
          setConflicts(e.causes);
          setResult({ text: 'Dry run found conflicts; nothing was changed.', error: e });
          return;
        }
      }
    }
    await run('Apply', () => apply(force, false));
  };
  const editConfig = (edit: (c: unknown) => unknown) => {
    setConfig(stringify(edit(parse(config))));
    setConflicts([]);
  };

  if (object.isPending) return <p aria-busy="true">Loading {name}…</p>;
  if (object.isError) return <ErrorBox error={object.error} />;
  const managers = view?.legend.map((e) => e.manager) ?? [];
  const deleting = Boolean((object.data.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp);

  return (
    <section aria-label={`${target.resource}/${name}`} className="object-view">
      <h2>
        {object.data.kind} {namespace ? `${namespace}/` : ''}{name} {deleting && <span className="badge">Terminating</span>}
      </h2>
      <label>
        <input type="checkbox" checked={showRaw} onChange={(e) => setShowRaw(e.target.checked)} /> Show raw managedFields
      </label>
      {view && <OwnershipGutter view={view} conflicts={marked} />}
      <h3>Your configuration</h3>
      <button type="button" onClick={() => setConfig(view?.yaml ?? '')}>Start from the live object</button>
      <MonacoEditor label="Apply configuration (YAML)" value={config} onChange={setConfig} />
      <div className="toolbar">
        <label>
          Field manager <input list="managers" value={manager} onChange={(e) => setManager(e.target.value)} />
        </label>
        <datalist id="managers">{managers.map((m) => <option key={m} value={m} />)}</datalist>
        <label>
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> force
        </label>
        <button type="button" onClick={() => void applyWithPreview()}>Apply</button>
        <button type="button" onClick={() => void run('Dry-run apply', () => apply(force, true))}>Dry-run</button>
        <button type="button" onClick={() => void run('Replace', () => client.replace(target, namespace, name, config))}>Replace</button>
        <label>
          propagation{' '}
          <select value={policy} onChange={(e) => setPolicy(e.target.value as PropagationPolicy)}>
            {['Background', 'Foreground', 'Orphan'].map((p) => <option key={p}>{p}</option>)}
          </select>
        </label>
        <button type="button" onClick={() => void run('Delete', () => client.delete(target, namespace, name, { propagationPolicy: policy }))}>Delete</button>
      </div>
      {conflicts.length > 0 && (
        <ConflictPreview
          manager={manager}
          causes={conflicts}
          onForce={() => void run('Apply (force)', () => apply(true, false)).then(() => setConflicts([]))}
          onDropFields={(fields) => editConfig((c) => fields.reduce((acc, f) => dropAtPath(acc, f), c))}
          onUseLiveValues={(fields) => editConfig((c) => fields.reduce((acc, f) => setFromLive(acc, object.data, f), c))}
        />
      )}
      <output aria-busy={result.busy ? 'true' : undefined}>
        <ErrorBox error={result.error} />
        <pre>{result.text}</pre>
      </output>
    </section>
  );
}
