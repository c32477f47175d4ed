// Probe: do creates slow down as the store grows? Creates, T and P alternate in blocks of 20
// from the first create on (no warm-up); prints p50s and create/(T+P) per 1000 creates.
// --fresh-keys: P puts a new key each time (its database grows as the cluster's does) instead of
// cycling through 50 keys.
//   npx tsx bench/browser/create-drift.ts [creates] [--fresh-keys]
import { buildAndServe, launchBrowser, openApp } from '../../e2e/browser/harness';
import { CONFIGMAP } from '../fixtures';
import { quantile } from '../http-client';

async function main(): Promise<void> {
  const total = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 8000);
  const fresh = process.argv.includes('--fresh-keys');
  const site = await buildAndServe('/', { isolated: true, bench: true });
  const browser = await launchBrowser();
  const { page } = await openApp(await browser.newContext(), site.url);
  const run = (kind: string, n: number, prefix: string) =>
    page.evaluate(`(async () => {
      const cm = ${CONFIGMAP.toString()};
      const times = [];
      for (let i = 0; i < ${n}; i++) {
        const t0 = performance.now();
        let res;
        if ('${kind}' === 'create') res = await fetch('api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm('${prefix}-' + i) });
        else if ('${kind}' === 'T') res = await fetch('__playground/bench/echo?status=201&bytes=620', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm('${prefix}-' + i) });
        else res = await fetch('__playground/bench/idb-put?bytes=620&key=' + (${fresh} ? '${prefix}-' + i : 'k' + (i % 50)));
        const text = await res.text();
        times.push('${kind}' === 'P' ? JSON.parse(text).ms : performance.now() - t0);
      }
      return times;
    })()`) as Promise<number[]>;
  const s: Record<string, number[]> = { create: [], T: [], P: [] };
  for (let done = 0; done < total; ) {
    for (const k of ['create', 'T', 'P']) s[k]!.push(...(await run(k, 20, `${k}-${done}`)));
    done += 20;
    if (done % 1000 === 0) {
      const [c, t, p] = ['create', 'T', 'P'].map((k) => quantile(s[k]!, 0.5));
      console.log(`${done}: create ${c!.toFixed(2)} T ${t!.toFixed(2)} P ${p!.toFixed(2)} ratio ${(c! / (t! + p!)).toFixed(2)}`);
      for (const k of Object.keys(s)) s[k] = [];
    }
  }
  await browser.close();
  await site.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
