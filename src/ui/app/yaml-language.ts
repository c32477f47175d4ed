// Schema-aware YAML in Monaco: completion of field names (with types, required first) and of
// values (enums, booleans, apiVersions, kinds, namespaces; see value-suggestions), hovers
// with the field's path and type, and validation markers — all from the server's /openapi/v3 for
// the apiVersion and kind of the document under the cursor (built-ins and CRDs alike), in
// multi-document YAML. Providers are registered once per language; each editor model brings its
// own schema lookup (the API it talks to).
import type { SchemaLookup } from '../lib/yaml-schema/validate';
import { validateYaml } from '../lib/yaml-schema/validate';
import { fieldHover, fieldSuggestions } from '../lib/yaml-schema/suggestions';
import { valueSuggestions } from '../lib/yaml-schema/value-suggestions';
import { groupVersion, yamlContext } from '../lib/yaml-schema/yaml-context';

type Monaco = typeof import('monaco-editor/editor/editor.api.js');
type Model = import('monaco-editor/editor/editor.api.js').editor.ITextModel;

const lookups = new Map<string, SchemaLookup>();
let registered = false;

/** Key position: only indentation, maybe a list dash, and the start of a key before the cursor. */
const KEY_POSITION = /^\s*(-\s+)?[A-Za-z0-9_.$-]*$/;
/** Value position: `key: ` and maybe the start of a plain value (group 1) before the cursor. */
const VALUE_POSITION = /^\s*(?:-\s+)?[^\s#'"{}[\],&*!|>%@`][^:#]*?:\s+(\S*)$/;
/** A list item's start: a scalar value, or the first key of a map item (the schema decides). */
const ITEM_POSITION = /^\s*-\s+(\S*)$/;

function register(monaco: Monaco): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider('yaml', {
    // A space after `key:` or `-` opens value suggestions as one types.
    triggerCharacters: [' '],
    async provideCompletionItems(model, position, context) {
      const lookup = lookups.get(model.uri.toString());
      const line = model.getLineContent(position.lineNumber);
      const before = line.slice(0, position.column - 1);
      if (!lookup) return { suggestions: [] };
      const value = VALUE_POSITION.exec(before) ?? ITEM_POSITION.exec(before);
      if (value) {
        const typed = value[1]!;
        const rest = /^\S*/.exec(line.slice(position.column - 1))![0];
        const range = new monaco.Range(position.lineNumber, position.column - typed.length, position.lineNumber, position.column + rest.length);
        const ctx = yamlContext(model.getValue(), position.lineNumber - 1, position.column - 1);
        const values = await valueSuggestions(ctx, lookup).catch(() => []);
        if (values.length || !ITEM_POSITION.test(before)) {
          return { suggestions: values.map((v, i) => ({ label: v.value, kind: monaco.languages.CompletionItemKind.EnumMember, detail: v.detail, insertText: v.value, sortText: String(i).padStart(4, '0'), range })) };
        }
      }
      // Typing a space elsewhere (indentation) asks for nothing.
      if (context.triggerKind === monaco.languages.CompletionTriggerKind.TriggerCharacter || !KEY_POSITION.test(before)) return { suggestions: [] };
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const ctx = yamlContext(model.getValue(), position.lineNumber - 1, position.column - 1);
      const snippet = monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet;
      if (!ctx.apiVersion || !ctx.kind) {
        if (ctx.path.length) return { suggestions: [] };
        return { suggestions: ['apiVersion', 'kind', 'metadata'].map((label) => ({ label, kind: monaco.languages.CompletionItemKind.Property, insertText: label === 'metadata' ? 'metadata:\n  name: $0' : `${label}: $0`, insertTextRules: snippet, range })) };
      }
      const { group, version } = groupVersion(ctx.apiVersion);
      const kind = await lookup(group, version, ctx.kind);
      if (!kind) return { suggestions: [] };
      return {
        suggestions: fieldSuggestions(kind, ctx.path).map((f) => ({
          label: f.name,
          kind: monaco.languages.CompletionItemKind.Property,
          detail: `${f.type}${f.required ? ' (required)' : ''}`,
          documentation: f.description,
          // Lists go kubectl style (items at the key's column); maps indent by two.
          insertText: !f.block ? `${f.name}: $0` : f.type.startsWith('[]') ? `${f.name}:\n- $0` : `${f.name}:\n  $0`,
          insertTextRules: snippet,
          sortText: `${f.required ? '0' : '1'}${f.name}`,
          range,
        })),
      };
    },
  });
  monaco.languages.registerHoverProvider('yaml', {
    async provideHover(model, position) {
      const lookup = lookups.get(model.uri.toString());
      if (!lookup) return null;
      const ctx = yamlContext(model.getValue(), position.lineNumber - 1, position.column - 1);
      const word = model.getWordAtPosition(position);
      if (!ctx.key || !word || word.word !== ctx.key) return null; // hovers explain keys, not values
      if (!ctx.apiVersion || !ctx.kind) return null;
      const { group, version } = groupVersion(ctx.apiVersion);
      const kind = await lookup(group, version, ctx.kind);
      const text = kind && fieldHover(kind, ctx.path, ctx.key);
      if (!text) return null;
      return { range: new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn), contents: [{ value: text }] };
    },
  });
}

/** Turns schema checking on for one model; the returned function turns it off. */
export function attachSchemas(monaco: Monaco, model: Model, lookup: SchemaLookup): () => void {
  register(monaco);
  const id = model.uri.toString();
  lookups.set(id, lookup);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  const check = () => {
    const mine = ++generation;
    const text = model.getValue();
    validateYaml(text, lookup).then(
      (problems) => {
        if (mine !== generation || model.isDisposed()) return;
        monaco.editor.setModelMarkers(
          model,
          'kube-schema',
          problems.map((p) => {
            const start = model.getPositionAt(p.start);
            const end = model.getPositionAt(Math.max(p.end, p.start + 1));
            return { startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column, message: p.message, severity: p.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning, source: 'OpenAPI' };
          }),
        );
      },
      // Schemas unavailable (e.g. the API is down): no markers rather than wrong ones.
      () => !model.isDisposed() && monaco.editor.setModelMarkers(model, 'kube-schema', []),
    );
  };
  const sub = model.onDidChangeContent(() => {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  });
  check();
  return () => {
    clearTimeout(timer);
    sub.dispose();
    lookups.delete(id);
  };
}
