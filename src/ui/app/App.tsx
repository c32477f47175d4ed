// The playground UI: resource explorer, lists, objects with field ownership, request console and
// health. Mounted by the page shell with the API's base URL (the Service Worker's scope or a Node
// host URL); everything goes over HTTP like any other client.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { createApiClient } from '../lib/api';
import { ClientContext } from './client-context';
import { HealthPanel } from './HealthPanel';
import { ObjectView } from './ObjectView';
import { RequestConsole } from './RequestConsole';
import { ResourceTree } from './ResourceTree';
import { TableView } from './TableView';
import { useHashRoute } from './use-hash-route';
import './theme.css';

export function App({ apiBase }: { apiBase: string }) {
  const client = useMemo(() => createApiClient({ apiBase }), [apiBase]);
  const queryClient = useMemo(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }), []);
  return (
    <QueryClientProvider client={queryClient}>
      <ClientContext.Provider value={client}>
        <Shell apiBase={apiBase} />
      </ClientContext.Provider>
    </QueryClientProvider>
  );
}

function Shell({ apiBase }: { apiBase: string }) {
  const [route, navigate] = useHashRoute();
  const [namespace, setNamespace] = useState('default');
  return (
    <div className="app">
      <a className="skip-link" href="#main">Skip to content</a>
      <header>
        <strong>kube-playground</strong>
        <nav aria-label="Views">
          <a href="#/">Explore</a> <a href="#/console">Request console</a> <a href="#/health">Health</a>
        </nav>
        <label>
          Namespace <input value={namespace} onChange={(e) => setNamespace(e.target.value)} size={14} />
        </label>
      </header>
      <aside>
        <ResourceTree current={route} namespace={namespace} />
      </aside>
      <main id="main" tabIndex={-1}>
        {route.view === 'home' && <p>Pick a kind on the left, or open the request console.</p>}
        {route.view === 'console' && <RequestConsole apiBase={apiBase} />}
        {route.view === 'health' && <HealthPanel />}
        {route.view === 'list' && (
          <TableView
            key={`${route.group}/${route.version}/${route.resource}/${route.namespace ?? ''}`}
            target={{ group: route.group, version: route.version, resource: route.resource, namespaced: route.namespace !== undefined }}
            namespace={route.namespace}
            labelSelector={route.labelSelector ?? ''}
            onLabelSelector={(labelSelector) => navigate({ ...route, ...(labelSelector ? { labelSelector } : { labelSelector: undefined }) })}
          />
        )}
        {route.view === 'object' && (
          <ObjectView
            key={`${route.group}/${route.resource}/${route.namespace ?? ''}/${route.name}`}
            target={{ group: route.group, version: route.version, resource: route.resource, namespaced: route.namespace !== undefined }}
            namespace={route.namespace}
            name={route.name}
          />
        )}
      </main>
    </div>
  );
}
