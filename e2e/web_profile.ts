// `npx tsx e2e/web_profile.ts` (after `npm run build:web`; BENCH_PORT moves the server): where
// the main thread's time goes from navigation to the first rows of the 100 MB bulk
// (about 102 000 frames) on screen, from a CDP Profiler sample: self time by function,
// the largest first, and the time the main thread waited (the engine runs in its worker).
// Prints figures, asserts nothing (docs/performance.md, "Run and first render at 100 000 frames").
import { spawn } from 'node:child_process';
import { benchPage, firstRowsMs } from './static_site.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4173);
const BASE = `http://127.0.0.1:${PORT}/`;
const ROW = '[role="grid"][aria-label="Packets"] .pl-body [role="row"]';
const HASH = '#s=ethernet-bulk-lossy&set=apps.0.bytes%3D100000000&set=duration_ms%3D1200000&set=links.eth.faults%3D%5B%5D';

interface Node {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', String(PORT), '--strictPort', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
try {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(BASE)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const { browser, page } = await benchPage();
  await page.goto(`${BASE}`);
  await page.locator(ROW).first().waitFor({ timeout: 60_000 });
  await page.goto('about:blank');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await page.goto(`${BASE}${HASH}`);
  await page
    .getByTestId('run-summary')
    .filter({ hasText: /^1\d{5} frames/ })
    .waitFor({ timeout: 300_000 });
  await page.locator(ROW).first().waitFor();
  const total = (await page.evaluate(() => performance.now())) as number;
  const painted = await firstRowsMs(page);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } };
  await browser.close();
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const n = byNode.get(id)!;
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  // inclusive time: each function once per sample, however deep it recurs
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byNode.get(n)!.callFrame;
      if (f.functionName) seen.add(`${f.functionName} ${f.url.split('/').pop()}`);
    }
    for (const k of seen) incl.set(k, (incl.get(k) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  console.log('inclusive time by function:');
  for (const [k, ms] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
  console.log(`navigation to first rows painted: ${painted.toFixed(0)} ms; to the main thread free with them: ${total.toFixed(0)} ms`);
  console.log('main thread, self time by function:');
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${k}`);
} finally {
  server.kill();
}
