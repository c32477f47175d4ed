// `npm run bridge`: kubectl, helm and client libraries against the cluster inside a browser tab.
// Prints where it listens and a one-time pairing code; once a tab pairs it writes the kubeconfig
// (HTTPS with the bridge's CA and a bearer token made for this run) and says so. Every line goes
// to stdout; the e2e harness reads them.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { writeKubeconfig } from '../kubeconfig';
import { ensureServingCerts } from '../tls';
import { Bridge } from './bridge';
import { FlagError, USAGE, parseBridgeFlags, type BridgeFlags } from './flags';
import { startBridgeServer } from './server';

const say = (line: string) => process.stdout.write(`${line}\n`);
const clock = () => new Date().toISOString().slice(11, 19);

async function main(argv: string[]): Promise<void> {
  let flags: BridgeFlags;
  try {
    flags = parseBridgeFlags(argv);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const certs = await ensureServingCerts(resolve(flags.dataDir), flags.host);
  const token = randomBytes(32).toString('base64url');
  const kubeconfig = resolve(flags.kubeconfig);
  let serverUrl = '';
  const bridge = new Bridge({
    token,
    limits: { maxInFlight: flags.maxInFlight, maxWatches: flags.maxWatches, requestTimeoutMs: flags.requestTimeoutMs },
    async onPairing() {
      await writeKubeconfig(kubeconfig, serverUrl, { caCertPem: certs.caCert, token });
      return { server: serverUrl, kubeconfig };
    },
    events: {
      paired(origin, replacedAnother) {
        say(`${clock()} paired with a tab at ${origin}${replacedAnother ? ' (it replaces the tab paired before, which no longer serves requests)' : ''}`);
        say(`kubeconfig written: export KUBECONFIG=${kubeconfig}`);
      },
      resumed: (origin) => say(`${clock()} the paired tab at ${origin} reconnected`),
      disconnected: (origin) => say(`${clock()} the paired tab at ${origin} disconnected: requests get 503 until it reconnects or another tab pairs`),
      code: (code) => say(`pairing code: ${code}`),
    },
  });
  const server = await startBridgeServer({ port: flags.port, host: flags.host, tls: certs, allowedOrigins: flags.allowedOrigins, bridge });
  serverUrl = server.url;
  say(`kube-playground bridge listening on ${server.url} (pages: ${flags.allowedOrigins.join(', ')})`);
  say(`In the playground open "Connect kubectl", enter the bridge address ${server.address} and this code.`);
  say(`pairing code: ${bridge.pairing.displayCode}`);

  const stop = () => {
    void server.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
