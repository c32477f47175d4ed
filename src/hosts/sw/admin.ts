// Private endpoints of the browser host under `<base>/__playground/`: status (storage mode and
// errors for the page), revision (the store's and the storage state, for the page to poll),
// memory (go on in memory after a storage failure), reset (empty cluster with
// the default namespaces), export (YAML download) and import (YAML upload onto a reset cluster),
// settings (runtime config, feature gates, access control, the simulated cluster: applying them
// restarts the API), clock (pause, step, resume, speed of cluster time) and audit (recent events). They live in the worker so that every tab sees one state and the page
// needs no knowledge of the core.
import { PROTOCOL_VERSION, type HostRevision, type HostStatus } from './protocol';
import type { ApiRuntime } from './api-runtime';
import { hostStatus } from './fetch-adapter';
import { exportCluster, importCluster } from './cluster-dump';
import { benchFloor } from './bench-floor';
import type { SettingsStore } from './settings-store';
import { isStream } from '../../core/meta/types';
import { bodyText } from '../../core/codec/json';
import { applySettings, currentSettings } from './settings-apply';
import type { ClockAdmin } from './clock-admin';

/** True in bench builds only (vite.config.ts); absent when the worker's code runs under vitest. */
declare const __KP_BENCH__: boolean | undefined;
const BENCH_BUILD = typeof __KP_BENCH__ === 'boolean' && __KP_BENCH__;

/** At most this many audit events per `GET audit` (the ring keeps more). */
const AUDIT_PAGE_MAX = 500;

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });

export async function handleAdmin(action: string, request: Request, runtime: ApiRuntime, build: string, settings?: SettingsStore, clock?: ClockAdmin): Promise<Response> {
  if (BENCH_BUILD && action.startsWith('bench/')) {
    const floor = await benchFloor(action, new URL(request.url).searchParams, request);
    if (floor) return floor;
  }
  const route = `${request.method} ${action}`;
  switch (route) {
    case 'GET status':
      return json(await status(runtime, build));
    case 'GET revision': {
      // The page polls this to keep its revision current: read from the store, not through an
      // API request, so polling leaves no audit events or metrics behind.
      const server = await runtime.server();
      const answer: HostRevision = { revision: String((await server.revision?.()) ?? ''), mode: runtime.mode, storageError: runtime.storageError };
      return json(answer);
    }
    case 'POST memory':
      await runtime.continueInMemory();
      return json(await status(runtime, build));
    case 'POST reset':
      await runtime.reset();
      return json(await status(runtime, build));
    case 'GET export':
      return new Response(await exportCluster(await runtime.server()), {
        headers: { 'Content-Type': 'application/yaml', 'Content-Disposition': 'attachment; filename="cluster.yaml"' },
      });
    case 'POST import': {
      const text = await request.text();
      await runtime.reset();
      return json(await importCluster(await runtime.server(), text));
    }
    case 'GET settings':
      if (!settings) break;
      return json(await currentSettings(settings));
    case 'PUT settings': {
      if (!settings) break;
      let input: unknown;
      try {
        input = JSON.parse(await request.text());
      } catch {
        return hostStatus(400, 'BadRequest', 'settings must be a JSON object');
      }
      const answer = await applySettings(runtime, settings, input);
      // Refused settings are a 422, with the start-up error as the message, like a Status.
      return json(answer.error ? { ...answer, message: answer.error } : answer, answer.error ? 422 : 200);
    }
    case 'GET clock':
      if (!clock) break;
      return json(await clock.read());
    case 'POST clock': {
      if (!clock) break;
      let input: unknown;
      try {
        input = JSON.parse(await request.text());
      } catch {
        return hostStatus(400, 'BadRequest', 'a clock action must be a JSON object');
      }
      const answer = await clock.act(input);
      return typeof answer === 'string' ? hostStatus(400, 'BadRequest', answer) : json(answer);
    }
    case 'GET timeline': {
      // Every revision the worker recorded of the object with this uid, oldest first.
      const uid = new URL(request.url).searchParams.get('uid') ?? '';
      if (!uid) return hostStatus(400, 'BadRequest', 'timeline needs ?uid=');
      return json({ revisions: await runtime.timeline.read(uid) });
    }
    case 'GET audit': {
      // The newest events of the running API server (its ring starts empty at each restart).
      const limit = Math.min(Number(new URL(request.url).searchParams.get('limit')) || AUDIT_PAGE_MAX, AUDIT_PAGE_MAX);
      const events = (await runtime.server()).audit?.events() ?? [];
      return json({ events: events.slice(-limit) });
    }
  }
  return hostStatus(404, 'NotFound', `no admin endpoint ${route}`);
}

async function status(runtime: ApiRuntime, build: string): Promise<HostStatus> {
  const server = await runtime.server();
  // The cheapest way to the store's revision through the API: an empty-page list.
  const res = await server.handle({ method: 'GET', url: '/api/v1/namespaces?limit=1', headers: { accept: 'application/json' } });
  let revision = '';
  if (res.status === 200 && !isStream(res.body)) revision = (JSON.parse(bodyText(res.body)) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const out: HostStatus = { protocol: PROTOCOL_VERSION, build, mode: runtime.mode, storageError: runtime.storageError, revision };
  if (runtime.openMs !== undefined) out.openMs = runtime.openMs;
  return out;
}
