// Before and after, side by side in Monaco's diff editor (read-only): the live object against what
// a dry run answered, so a learner sees exactly which lines a write would change. Loaded with the
// editor (lazily); until then, or if it cannot load, both texts are shown as plain blocks.
import { useEffect, useRef, useState } from 'react';
import { loadMonaco } from './MonacoEditor';

export interface DiffViewProps {
  /** Accessible name of the whole comparison. */
  label: string;
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
}

export function DiffView({ label, before, after, beforeLabel, afterLabel }: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let disposed = false;
    let cleanup = () => {};
    loadMonaco().then(
      ({ monaco }) => {
        if (disposed || !host.current) return;
        const dark = matchMedia('(prefers-color-scheme: dark)');
        const original = monaco.editor.createModel(before, 'yaml');
        const modified = monaco.editor.createModel(after, 'yaml');
        const diff = monaco.editor.createDiffEditor(host.current, {
          readOnly: true,
          originalEditable: false,
          automaticLayout: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          renderSideBySide: true,
          // Narrow screens (a 1024-wide projector) get one column with the removed lines inline.
          useInlineViewWhenSpaceIsLimited: true,
          theme: dark.matches ? 'vs-dark' : 'vs',
          ariaLabel: label,
        });
        diff.setModel({ original, modified });
        cleanup = () => {
          diff.dispose();
          original.dispose();
          modified.dispose();
        };
        setState('ready');
      },
      () => setState('failed'),
    );
    return () => {
      disposed = true;
      cleanup();
    };
  }, [before, after]);
  return (
    <figure className="diff-view" aria-label={label} data-testid="diff-view">
      {/* One line: the diff is side by side when wide and one column when narrow. */}
      <figcaption className="diff-captions">
        {beforeLabel} → {afterLabel} <span className="diff-legend">(removed lines in red, added in green)</span>
      </figcaption>
      {state !== 'ready' && (
        <div className="diff-fallback">
          {state === 'loading' && <p aria-busy="true">Loading the diff…</p>}
          <pre aria-label={beforeLabel}>{before}</pre>
          <pre aria-label={afterLabel}>{after}</pre>
        </div>
      )}
      <div ref={host} className="diff-host" hidden={state !== 'ready'} />
    </figure>
  );
}
