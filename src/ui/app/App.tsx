// The playground UI: resource explorer, lists, objects with field ownership, request console and
// health. Mounted by the page shell with the API's base URL (the Service Worker's scope or a Node
// host URL); everything goes over HTTP like any other client.
import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { createApiClient } from '../lib/api';
import { impersonationHeaders, loadIdentity, saveIdentity, type Identity } from '../lib/identity';
import { WarningLog } from '../lib/warnings';
import { AuditPanel } from './AuditPanel';
import { BridgePanel } from './BridgePanel';
import { WebhooksPanel } from './WebhooksPanel';
import { IdentitySwitcher } from './IdentitySwitcher';
import { SettingsPanel, useHostSettings } from './SettingsPanel';
import { RecentWarnings, WarningLogContext } from './Warnings';
import { ClientContext } from './client-context';
import { HealthPanel } from './HealthPanel';
import { ObjectView } from './ObjectView';
import { RequestConsole } from './RequestConsole';
import { ResourceTree } from './ResourceTree';
import { TableView } from './TableView';
import { navigate, useRoute } from './router';
import { DEFAULT_LIST_LIMIT, formatHash, type ViewState } from '../lib/routes';
import { scheduleInFrame } from '../lib/watch-store';
import { Welcome } from './Welcome';
import { PresenterToggle } from './PresenterToggle';
import { ClockControls } from './cluster/ClockControls';
import { Cable, GraduationCap, HeartPulse, House, ScrollText, Settings, SquareTerminal, Webhook } from 'lucide-react';
import './theme.css';

// The lessons (their data and views) load only when a learner opens them.
const LessonView = lazy(() => import('./learn/LessonView').then((m) => ({ default: m.LessonView })));
const LessonList = lazy(() => import('./learn/LessonList').then((m) => ({ default: m.LessonList })));

// Query results reach React in the same per-frame batch as watch events: one commit per frame.
notifyManager.setScheduler(scheduleInFrame);

const tabStorage = () => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);

export function App({ apiBase }: { apiBase: string }) {
  const [identity, setIdentity] = useState<Identity | undefined>(() => loadIdentity(tabStorage()));
  const identityKey = JSON.stringify(identity ?? null);
  const warnings = useMemo(() => new WarningLog(), []);
  const client = useMemo(() => createApiClient({ apiBase, headers: impersonationHeaders(identity), onWarnings: (request, w) => warnings.add(request, w) }), [apiBase, identityKey]);
  // A cache per identity, and the views remounted on it (react-query observers keep the client
  // they were made with): nothing shown while acting as alice may come from the admin's reads.
  const [namespace, setNamespace] = useState('default');
  const queryClient = useMemo(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }), [identityKey]);
  useEffect(() => () => queryClient.clear(), [queryClient]);
  const changeIdentity = (next: Identity | undefined) => {
    saveIdentity(tabStorage(), next);
    setIdentity(next);
  };
  return (
    <QueryClientProvider key={identityKey} client={queryClient}>
      <ClientContext.Provider value={client}>
        <WarningLogContext.Provider value={warnings}>
          <Shell apiBase={apiBase} identity={identity} onIdentity={changeIdentity} namespace={namespace} onNamespace={setNamespace} />
        </WarningLogContext.Provider>
      </ClientContext.Provider>
    </QueryClientProvider>
  );
}

/** The header's views, each with an icon (lucide) beside its name. */
const NAV = [
  [{ view: 'home' }, 'Home', House],
  [{ view: 'learn' }, 'Lessons', GraduationCap],
  [{ view: 'console' }, 'Request console', SquareTerminal],
  [{ view: 'health' }, 'Health', HeartPulse],
  [{ view: 'settings' }, 'Settings', Settings],
  [{ view: 'audit' }, 'Audit', ScrollText],
  [{ view: 'webhooks' }, 'Webhooks', Webhook],
  [{ view: 'kubectl' }, 'Connect kubectl', Cable],
] as const satisfies ReadonlyArray<readonly [ViewState, string, unknown]>;

/** Which header view a view is in (a lesson is in Lessons; an object or list in none). */
function navSection(route: ViewState): ViewState['view'] | undefined {
  if (route.view === 'lesson') return 'learn';
  return NAV.some(([v]) => v.view === route.view) ? route.view : undefined;
}

interface ShellProps {
  apiBase: string;
  identity: Identity | undefined;
  onIdentity(next: Identity | undefined): void;
  namespace: string;
  onNamespace(namespace: string): void;
}

function Shell({ apiBase, identity, onIdentity, namespace, onNamespace: setNamespace }: ShellProps) {
  const route = useRoute();
  const settings = useHostSettings(apiBase);
  const routeNamespace = route.view === 'list' || route.view === 'object' ? route.namespace : undefined;
  // The field names the namespace on screen: a deep link or a link into another namespace moves it.
  useEffect(() => {
    if (routeNamespace !== undefined) setNamespace(routeNamespace);
  }, [routeNamespace]);
  // Enter in the field shows the same kind in the namespace typed.
  const switchNamespace = () => {
    if (route.view === 'list' && route.namespace !== undefined && namespace && namespace !== route.namespace) navigate({ ...route, namespace });
  };
  return (
    <div className="app">
      <a className="skip-link" href="#main">Skip to content</a>
      <header>
        <strong className="brand">kube-playground</strong>
        <nav aria-label="Views" className="views">
          {NAV.map(([target, label, Icon]) => (
            <a key={target.view} href={formatHash(target)} aria-label={label} data-label={label} aria-current={navSection(route) === target.view ? 'page' : undefined}>
              <Icon aria-hidden="true" size={15} /> {label}
            </a>
          ))}
        </nav>
        <ClockControls apiBase={apiBase} />
        <PresenterToggle />
        <IdentitySwitcher identity={identity} onChange={onIdentity} accessControl={settings.data?.settings.accessControl} />
      </header>
      <aside>
        {/* The namespace scopes the tree's links, so it sits above the tree. */}
        <label className="namespace-field">
          Namespace{' '}
          <input value={namespace} onChange={(e) => setNamespace(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && switchNamespace()} size={14} />
        </label>
        <ResourceTree current={route} namespace={namespace} />
        <RecentWarnings />
      </aside>
      <main id="main" tabIndex={-1}>
        {/* A scenario link is asked about (by the page shell) over the welcome screen. */}
        {(route.view === 'home' || route.view === 'scenario') && <Welcome />}
        {(route.view === 'learn' || route.view === 'lesson') && (
          <Suspense fallback={<p aria-busy="true">Loading the lessons…</p>}>
            {route.view === 'learn' ? <LessonList /> : <LessonView apiBase={apiBase} lessonId={route.lesson} step={route.step} headers={impersonationHeaders(identity)} />}
          </Suspense>
        )}
        {route.view === 'settings' && <SettingsPanel apiBase={apiBase} />}
        {route.view === 'audit' && <AuditPanel apiBase={apiBase} />}
        {route.view === 'webhooks' && <WebhooksPanel apiBase={apiBase} />}
        {route.view === 'kubectl' && <BridgePanel apiBase={apiBase} />}
        {route.view === 'console' && <RequestConsole apiBase={apiBase} extraHeaders={impersonationHeaders(identity)} initial={route.request} />}
        {route.view === 'health' && <HealthPanel />}
        {route.view === 'list' && (
          <TableView
            key={`${route.group}/${route.version}/${route.resource}/${route.namespace ?? ''}`}
            target={{ group: route.group, version: route.version, resource: route.resource, namespaced: route.namespace !== undefined }}
            namespace={route.namespace}
            labelSelector={route.labelSelector ?? ''}
            // A new selector starts again from the first page.
            onLabelSelector={(labelSelector) => navigate({ ...route, page: undefined, labelSelector: labelSelector || undefined })}
            limit={route.limit ?? DEFAULT_LIST_LIMIT}
            pageIndex={(route.page ?? 1) - 1}
            onPaging={({ limit, pageIndex }) => navigate({ ...route, limit, page: pageIndex + 1 })}
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
