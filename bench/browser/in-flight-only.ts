// The 16-in-flight row alone, repeated (for A/B runs of two builds): `npx tsx bench/browser/in-flight-only.ts [runs]`.
import { buildAndServe, launchBrowser, openApp } from '../../e2e/browser/harness';
import { measureInFlight } from './in-flight';

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 3);
  const site = await buildAndServe('/', { isolated: true, bench: true });
  const browser = await launchBrowser();
  const { page } = await openApp(await browser.newContext(), site.url);
  for (let i = 0; i < runs; i++) {
    const r = await measureInFlight(page, 'default', `run${i}`);
    console.log(`in flight: creates ${Math.round(r.creates)}/s, T ${Math.round(r.echo)}/s, ratio ${(r.echo / r.creates).toFixed(2)}`);
  }
  await browser.close();
  await site.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
