// `npm run serve`: the Kubernetes API over HTTP for kubectl, helm and client libraries.
// Prints exactly one line to stdout once listening (scripts and the e2e harness parse it).
import { resolve } from 'node:path';
import { createApiServer } from '../../core/api';
import { FlagError, parseFlags, type HostFlags } from './flags';
import { writeKubeconfig } from './kubeconfig';
import { startNodeHost } from './server';

/** Shutdown must finish within about this long, whatever is still open. */
const SHUTDOWN_DEADLINE_MS = 2000;

async function main(argv: string[]): Promise<void> {
  let flags: HostFlags;
  try {
    flags = parseFlags(argv);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    process.stderr.write(`error: ${err.message}\nusage: serve [--port 8080] [--host 127.0.0.1] [--kubeconfig .kubeconfig] [--history-window 5m]\n`);
    process.exit(2);
  }
  const api = await createApiServer({
    historyWindowMs: flags.historyWindowMs,
    serverAddress: flags.port ? `${flags.host}:${flags.port}` : undefined,
  });
  const host = await startNodeHost({ port: flags.port, host: flags.host, api });
  const kubeconfigPath = resolve(flags.kubeconfig);
  await writeKubeconfig(kubeconfigPath, host.url);
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
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
