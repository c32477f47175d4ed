// `npm run serve`: the Kubernetes API over HTTP for kubectl, helm and client libraries.
// Prints exactly one line to stdout once listening (scripts and the e2e harness parse it).
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createLmdbBackend } from '../../backends/lmdb/lmdb-backend';
import { openEtcdStore } from '../../backends/etcd/etcd-store';
import { StorageError } from '../../core/storage/types';
import { createApiServer, type ApiServer } from '../../core/api';
import { nodeWebhookTransport } from './webhook-transport';
import { createWriteStream } from 'node:fs';
import { FlagError, parseFlags, type HostFlags } from './flags';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost } from './server';
import { caFiles, ensureServingCerts } from './tls';
import { ensureAdminClientCertificate, loadClientCaFile } from './client-cert';
import { readFile } from 'node:fs/promises';
import { parseTokenFile, type AuthenticationOptions } from '../../core/auth/authn';
import { RealClock } from '../../core/controllers/clock';

/** --audit-log-path: every audit event as one JSON line, appended to the file (`-`: stdout). */
function streamAuditLog(api: ApiServer, path: string): void {
  const out = path === '-' ? process.stdout : createWriteStream(resolve(path), { flags: 'a' });
  api.audit?.subscribe((event) => out.write(JSON.stringify(event) + '\n'));
}

/** Shutdown must finish within about this long, whatever is still open. */
const SHUTDOWN_DEADLINE_MS = 2000;

/**
 * A static token file, or the client CA that comes with --secure-port (x509 client certificates,
 * as kube-apiserver's --client-ca-file), turns authentication on; without either every caller is the admin.
 */
async function authenticationFromFlags(flags: HostFlags): Promise<AuthenticationOptions | undefined> {
  if (!flags.tokenAuthFile && flags.securePort === undefined) return undefined;
  const tokens = flags.tokenAuthFile ? parseTokenFile(await readFile(flags.tokenAuthFile, 'utf8')) : [];
  return { tokens, anonymous: flags.anonymousAuth ?? false };
}

async function main(argv: string[]): Promise<void> {
  let flags: HostFlags;
  try {
    flags = parseFlags(argv);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    process.stderr.write(`error: ${err.message}\nusage: serve [--port 8080] [--host 127.0.0.1] [--kubeconfig .kubeconfig] [--history-window 5m] [--authorization-mode AlwaysAllow|RBAC] [--token-auth-file FILE] [--anonymous-auth false] [--runtime-config batch/v1beta1=false] [--feature-gates APIListChunking=false] [--show-hidden-metrics-for-version 1.22] [--audit-log-path FILE|-] [--secure-port 6443] [--data-dir DIR] [--etcd-servers http://127.0.0.1:2379,...] [--etcd-prefix /registry] [--client-ca-file FILE] [--controllers *,-serviceaccount-token] [--nodes 3] [--node-cpu 4] [--node-memory 8Gi] [--kubelet-delay 1s] [--job-run-time 1s] [--terminated-pod-gc-threshold 12500] [--clock-speed 1]\n`);
    process.exit(2);
  }
  const authentication = await authenticationFromFlags(flags);
  const dataDir = resolve(flags.dataDir ?? '.kube-playground');
  // Made before the API server, whose kube-root-ca.crt ConfigMaps publish this CA.
  const certs = flags.securePort !== undefined ? await ensureServingCerts(dataDir, flags.host) : undefined;
  // Objects are kept on disk only when --data-dir is given: the in-memory default stays, and the
  // default data dir (TLS material only) never starts holding a cluster behind the user's back.
  // With --etcd-servers the objects live in etcd, shared with every host on the same cluster.
  const store = flags.etcdServers ? await openEtcdStore({ servers: flags.etcdServers, prefix: flags.etcdPrefix ?? '/registry', historyWindowMs: flags.historyWindowMs }) : undefined;
  const backend = !store && flags.dataDir !== undefined ? createLmdbBackend({ path: join(dataDir, 'storage') }) : undefined;
  const api = await createApiServer({
    backend,
    store,
    // Several hosts may share the etcd cluster: the controllers run in the Lease holder only.
    leaderElection: store ? { identity: `${hostname()}_${randomUUID()}` } : undefined,
    historyWindowMs: flags.historyWindowMs,
    authorization: flags.authorizationMode,
    authentication,
    serverAddress: flags.port ? `${flags.host}:${flags.port}` : undefined,
    runtimeConfig: flags.runtimeConfig,
    featureGates: flags.featureGates,
    showHiddenMetricsForVersion: flags.showHiddenMetricsForVersion,
    webhookTransport: nodeWebhookTransport,
    clusterCaCert: certs?.caCert,
    // The data dir's CA signs approved CSRs too, as kubeadm points --cluster-signing-* at it.
    clusterSigning: certs && { certPem: certs.caCert, keyPem: await readFile(caFiles(dataDir).key, 'utf8') },
    controllers: flags.controllers ?? '*',
    clock: flags.clockSpeed !== undefined ? new RealClock(flags.clockSpeed) : undefined,
    cluster: { nodes: flags.nodes, nodeCpu: flags.nodeCpu, nodeMemory: flags.nodeMemory, kubeletDelayMs: flags.kubeletDelayMs, jobRunMs: flags.jobRunMs, terminatedPodGCThreshold: flags.terminatedPodGCThreshold },
  });
  if (flags.auditLogPath) streamAuditLog(api, flags.auditLogPath);
  const port = flags.securePort ?? flags.port;
  // Client certificates are verified against the data dir's CA and, with --client-ca-file, that bundle too.
  const clientCas = certs && flags.clientCaFile ? `${certs.caCert.trimEnd()}\n${await loadClientCaFile(flags.clientCaFile)}` : certs?.caCert;
  const host = await startNodeHost({ port, host: flags.host, api, tls: certs && { key: certs.key, cert: certs.cert, ca: clientCas } });
  const kubeconfigPath = resolve(flags.kubeconfig);
  // The kubeconfig's user is the first system:masters token, so plain `kubectl` stays the admin;
  // without one, kubeadm's kubernetes-admin client certificate. Never both: client-go sends the
  // kubeconfig's certificate even with `kubectl --token`, and x509 wins, so every token would act as admin.
  const adminToken = authentication?.tokens?.find((t) => t.groups.includes('system:masters'))?.token;
  const clientCert = certs && !adminToken ? await ensureAdminClientCertificate(dataDir) : undefined;
  await writeKubeconfig(kubeconfigPath, host.url, { caCertPem: certs?.caCert, token: certs ? adminToken : undefined, clientCert });
  process.stdout.write(`kube-playground API listening on ${host.url} (kubeconfig: ${kubeconfigPath})\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(0); // a second Ctrl-C: do not wait any longer
    stopping = true;
    // Readyz fails first so load balancers and `kubectl get --raw /readyz` see the drain.
    api.beginShutdown();
    setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS).unref();
    void host
      .close()
      .then(() => api.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`shutdown: ${err instanceof Error ? err.message : String(err)}\n`);
          process.exit(0);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // Storage that cannot open (etcd unreachable, a data dir in use) is the user's to fix: one line.
  if (err instanceof StorageError) process.stderr.write(`error: storage: ${err.message}\n`);
  else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
