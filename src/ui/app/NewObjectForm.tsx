// "Open or create by name" for a list: goes to that object's view, where a name that does not
// exist yet can be created (Create, or Apply, which creates too) from a skeleton.
import { useState } from 'react';
import type { ResourceRef } from '../lib/api-paths';
import { navigate } from './router';

export function NewObjectForm({ target, namespace }: { target: ResourceRef; namespace?: string }) {
  const [name, setName] = useState('');
  const needsNamespace = target.namespaced && !namespace;
  return (
    <form
      className="toolbar"
      aria-label="Open or create by name"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim() || needsNamespace) return;
        navigate({ view: 'object', group: target.group, version: target.version, resource: target.resource, name: name.trim(), ...(namespace ? { namespace } : {}) });
      }}
    >
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="my-object" />
      </label>
      <button type="submit" disabled={!name.trim() || needsNamespace} title={needsNamespace ? 'pick a namespace first' : undefined}>
        Open or create
      </button>
    </form>
  );
}
