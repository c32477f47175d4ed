// Everything Monaco needs, in one module that MonacoEditor imports dynamically so none of it is in
// the first view's bundle: the editor API with the features we use (not the full `monaco-editor`
// entry, which pulls in every language and the TypeScript/CSS/HTML/JSON services), the YAML
// grammar, our schema support, and the one generic editor worker (a Vite module worker).
import * as monaco from 'monaco-editor/editor/editor.api.js';
import './monaco-features';
import 'monaco-editor/languages/definitions/yaml/register.js';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';

(globalThis as { MonacoEnvironment?: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };

export { attachSchemas } from './yaml-language';
