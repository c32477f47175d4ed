// The YAML editor. Monaco (with the schema-aware YAML support) is loaded with a dynamic import only
// when an editor is first shown, so it stays out of the initial bundle; a plain textarea works
// until (and if) it arrives. Tab leaves the editor (Ctrl+M switches Tab to indenting), so keyboard
// users are never trapped in it. Ctrl/Cmd+Enter runs the editor's action and Ctrl/Cmd+Shift+Enter
// its dry run, when the caller offers them (they replace Monaco's "insert line below/above").
import { useEffect, useRef, useState } from 'react';
import type { SchemaLookup } from '../lib/yaml-schema/validate';
import { presenterMode } from './PresenterToggle';

type Loader = typeof import('./monaco-loader');

let monacoLoad: Promise<Loader> | undefined;
export const loadMonaco = () => (monacoLoad ??= import('./monaco-loader'));

/** A line of the text to mark, with the words shown after it and on hover. */
export interface LineMark {
  line: number;
  message: string;
}

export interface MonacoEditorProps {
  value: string;
  onChange(v: string): void;
  label: string;
  /** Schema lookup for completion, hovers and validation; without it, plain YAML. */
  schemas?: SchemaLookup;
  /** Ctrl/Cmd+Enter. */
  onRun?(): void;
  /** Ctrl/Cmd+Shift+Enter. */
  onDryRun?(): void;
  /** Lines to mark as conflicting (a tinted line, the message after it and on hover). */
  marks?: readonly LineMark[];
}

/** Whether a key event is Ctrl/Cmd+Enter (with or without Shift, as asked). */
export function isRunShortcut(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }, shift: boolean): boolean {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey) && e.shiftKey === shift && !e.altKey;
}

export function MonacoEditor({ value, onChange, label, schemas, onRun, onDryRun, marks = [] }: MonacoEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const latest = useRef(onChange);
  latest.current = onChange;
  // Read when a shortcut fires, so the editor (made once) always runs the current action.
  const actions = useRef({ onRun, onDryRun });
  actions.current = { onRun, onDryRun };
  const editorRef = useRef<ReturnType<Loader['monaco']['editor']['create']> | null>(null);
  const decorations = useRef<ReturnType<ReturnType<Loader['monaco']['editor']['create']>['createDecorationsCollection']> | null>(null);

  useEffect(() => {
    let disposed = false;
    let cleanup = () => {};
    loadMonaco().then(
      ({ monaco, attachSchemas }) => {
        if (disposed || !host.current) return;
        const dark = matchMedia('(prefers-color-scheme: dark)');
        const theme = () => (dark.matches ? 'vs-dark' : 'vs');
        const editor = monaco.editor.create(host.current, { value, language: 'yaml', automaticLayout: true, minimap: { enabled: false }, theme: theme(), ariaLabel: label, tabFocusMode: true, scrollBeyondLastLine: false, fontSize: presenterMode() ? 18 : 14 });
        const onScheme = () => monaco.editor.setTheme(theme());
        dark.addEventListener('change', onScheme);
        editor.onDidChangeModelContent(() => latest.current(editor.getValue()));
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => actions.current.onRun?.());
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.Enter, () => actions.current.onDryRun?.());
        const detach = schemas && editor.getModel() ? attachSchemas(monaco, editor.getModel()!, schemas) : () => {};
        cleanup = () => {
          dark.removeEventListener('change', onScheme);
          detach();
        };
        editorRef.current = editor;
        setState('ready');
      },
      () => setState('failed'),
    );
    return () => {
      disposed = true;
      cleanup();
      editorRef.current?.dispose();
      editorRef.current = null;
      decorations.current = null;
    };
  }, []);

  const marksKey = JSON.stringify(marks);
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    decorations.current ??= editor.createDecorationsCollection();
    const model = editor.getModel();
    const lines = model?.getLineCount() ?? 0;
    decorations.current.set(
      marks
        .filter((m) => model && m.line >= 1 && m.line <= lines)
        .map((m) => ({
          // The whole line's text, so the note is written after its end.
          range: { startLineNumber: m.line, startColumn: 1, endLineNumber: m.line, endColumn: model!.getLineMaxColumn(m.line) },
          options: {
            isWholeLine: true,
            className: 'editor-conflict-line',
            linesDecorationsClassName: 'editor-conflict-gutter',
            hoverMessage: { value: `Conflict: ${m.message}` },
            after: { content: `  ⚠ ${m.message}`, inlineClassName: 'editor-conflict-note' },
          },
        })),
    );
  }, [marksKey, state]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    // An edit rather than setValue, so a change made for the user (e.g. "share ownership") can be undone.
    if (editor && model && editor.getValue() !== value) editor.executeEdits('external', [{ range: model.getFullModelRange(), text: value }]);
  }, [value]);

  return (
    <div className="editor">
      {state !== 'ready' && (
        <>
          {state === 'loading' && <p aria-busy="true">Loading the editor…</p>}
          {state === 'failed' && <p role="status">The code editor could not be loaded; a plain text box is used instead.</p>}
          <textarea
            aria-label={label}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={(e) => {
              const action = isRunShortcut(e, false) ? onRun : isRunShortcut(e, true) ? onDryRun : undefined;
              if (!action) return;
              e.preventDefault();
              action();
            }}
            rows={16}
            spellCheck={false}
          />
        </>
      )}
      <div ref={host} className="monaco-host" hidden={state !== 'ready'} />
    </div>
  );
}
