// The YAML editor. Monaco is loaded with a dynamic import only when an editor is first shown, so it
// stays out of the initial bundle; a plain textarea works until (and if) it arrives.
import { useEffect, useRef, useState } from 'react';

type Monaco = typeof import('monaco-editor');

let monacoLoad: Promise<Monaco> | undefined;
const loadMonaco = () => (monacoLoad ??= import('monaco-editor'));

export function MonacoEditor({ value, onChange, label }: { value: string; onChange(v: string): void; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const latest = useRef(onChange);
  latest.current = onChange;
  const editorRef = useRef<import('monaco-editor').editor.IStandaloneCodeEditor | null>(null);

  useEffect(() => {
    let disposed = false;
    loadMonaco().then(
      (monaco) => {
        if (disposed || !host.current) return;
        const dark = matchMedia('(prefers-color-scheme: dark)').matches;
        const editor = monaco.editor.create(host.current, { value, language: 'yaml', automaticLayout: true, minimap: { enabled: false }, theme: dark ? 'vs-dark' : 'vs', ariaLabel: label });
        editor.onDidChangeModelContent(() => latest.current(editor.getValue()));
        editorRef.current = editor;
        setState('ready');
      },
      () => setState('failed'),
    );
    return () => {
      disposed = true;
      editorRef.current?.dispose();
      editorRef.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.getValue() !== value) editor.setValue(value);
  }, [value]);

  return (
    <div className="editor">
      {state !== 'ready' && (
        <>
          {state === 'loading' && <p aria-busy="true">Loading the editor…</p>}
          <textarea aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} rows={20} spellCheck={false} />
        </>
      )}
      <div ref={host} className="monaco-host" hidden={state !== 'ready'} />
    </div>
  );
}
