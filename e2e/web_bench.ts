// `npm run bench:web`: figures for the built page in Debian's Chromium, printed, not asserted
// (these machines are shared; report them with the machine named).
//   - time to first render: navigation start to the first packet row on screen;
//   - a 10 000-frame and a 100 000-frame scenario: navigation start to their first rows on
//     screen (a long run shows its rows while it goes on), and to the whole run on screen
//     (run in the worker, trace read, analysis, render);
//   - frames per second while scrolling 100 000 rows;
//   - with the 100 MB bulk (about 110 000 frames) on screen: the JS heap after a forced
//     garbage collection (CDP), the ladder's frame times while the wheel zooms (at Fit and
//     zoomed in), and the frames per second of Play at 100x;
//   - what the first load downloads (navigation to the first run on screen), gzipped, by kind,
//     and the JS, CSS and wasm bytes of the whole built app (the rest loads when first used).
import type { Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { gzipSync } from 'node:zlib';
import { benchPage, downloadByKind, firstRowsMs, wholeRunMs } from './static_site.ts';

// BENCH_PORT lets two checkouts benchmark on one machine without sharing a server.
const PORT = Number(process.env.BENCH_PORT ?? 4173);
const BASE = `http://127.0.0.1:${PORT}/`;
const ROW = '[role="grid"][aria-label="Packets"] .pl-body [role="row"]';

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(BASE)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('vite preview did not start');
}

/** Navigation to the first rows on screen, and to the whole run on screen, ms. */
async function loadMs(page: Page, hash: string, frames: number): Promise<{ first: number; whole: number }> {
  await page.goto('about:blank');
  await page.goto(`${BASE}${hash}`);
  await page
    .getByTestId('run-summary')
    .filter({ hasText: `${frames} frames` })
    .waitFor({ timeout: 300_000 });
  await page.locator(ROW).first().waitFor();
  return { first: await firstRowsMs(page), whole: await wholeRunMs(page) };
}

async function frameCount(page: Page, hash: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${BASE}${hash}`);
  const text = await page.getByTestId('run-summary').textContent({ timeout: 300_000 });
  return Number(/^(\d+) frames/.exec(text ?? '')?.[1]);
}

// Passed as text: tsx would wrap named functions in a helper the page does not have.
const SCROLL_SCRIPT = `(async () => {
  const grid = document.querySelector('[role="grid"][aria-label="Packets"]');
  const rows = Number(document.querySelector('.pl-count')?.textContent?.match(/\\d+/)?.[0] ?? 0);
  let frames = 0;
  const t0 = performance.now();
  await new Promise((done) => {
    function tick() {
      frames++;
      grid.scrollTop += 480;
      if (performance.now() - t0 < 3000) requestAnimationFrame(tick);
      else done();
    }
    requestAnimationFrame(tick);
  });
  return { fps: (frames * 1000) / (performance.now() - t0), rows };
})()`;

async function scrollFps(page: Page): Promise<{ fps: number; rows: number }> {
  return (await page.evaluate(SCROLL_SCRIPT)) as { fps: number; rows: number };
}

/** The JS heap in use after a full garbage collection, bytes (Chromium's own count). */
async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

// One wheel event per animation frame on the ladder, `n` of them (deltaY < 0 zooms in);
// the frame times are the gaps between animation frames, so a slow React render or
// drawing shows as a long frame. Returns the gaps, ms.
const WHEEL_SCRIPT = `(async ([n, deltaY]) => {
  const svg = document.querySelector('[data-testid="ladder-svg"]');
  const r = svg.getBoundingClientRect();
  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, deltaY, bubbles: true, cancelable: true };
  const gaps = [];
  await new Promise((done) => {
    let last = 0;
    let sent = 0;
    function tick(now) {
      if (last) gaps.push(now - last);
      last = now;
      if (sent++ < n) {
        svg.dispatchEvent(new WheelEvent('wheel', at));
        requestAnimationFrame(tick);
      } else done();
    }
    requestAnimationFrame(tick);
  });
  return gaps;
})`;

function percentiles(gaps: number[]): string {
  const s = [...gaps].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
}

/** The ladder's frame times while zooming: 40 wheel steps in from Fit, 40 more deep in,
 *  then back out. */
async function wheelZoom(page: Page): Promise<{ fit: string; zoomed: string }> {
  await page.locator('.tl-title').filter({ hasText: 'Ladder' }).getByRole('button', { name: 'Fit', exact: true }).click();
  await page.waitForTimeout(500);
  const fit = (await page.evaluate(`${WHEEL_SCRIPT}([40, -30])`)) as number[];
  const zoomed = (await page.evaluate(`${WHEEL_SCRIPT}([40, -30])`)) as number[];
  await page.evaluate(`${WHEEL_SCRIPT}([80, 30])`);
  return { fit: percentiles(fit), zoomed: percentiles(zoomed) };
}

// Animation frames per second while Play runs, for at most 3 s (the playback clock moves
// the cursor once per animation frame, so this is how often the page follows the cursor);
// counting stops when the run's end stops Play.
const PLAY_SCRIPT = `(async () => {
  const playing = () => !!document.querySelector('[aria-label="Playback"] button[aria-label="Pause"]');
  let frames = 0;
  const t0 = performance.now();
  await new Promise((done) => {
    function tick() {
      frames++;
      if (playing() && performance.now() - t0 < 3000) requestAnimationFrame(tick);
      else done();
    }
    requestAnimationFrame(tick);
  });
  return (frames * 1000) / (performance.now() - t0);
})()`;

async function playFps(page: Page): Promise<number> {
  const bar = page.getByLabel('Playback');
  await bar.locator('select').selectOption('100');
  await bar.getByRole('button', { name: 'Play' }).click();
  const fps = (await page.evaluate(PLAY_SCRIPT)) as number;
  const pause = bar.getByRole('button', { name: 'Pause' });
  if (await pause.count()) await pause.click();
  return fps;
}

function gz(dir: string, ext: string): number {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .reduce((n, f) => n + gzipSync(readFileSync(`${dir}/${f}`)).length, 0);
}

const server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', String(PORT), '--strictPort', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
try {
  await waitForServer();
  // the workers' requests (the engine's wasm) come through the context too
  const { browser, page, fetched } = await benchPage();
  const first = await loadMs(page, '', 18);
  const firstLoad = downloadByKind('dist', BASE, fetched);
  const tenK = '#s=ethernet-bulk-lossy&set=apps.0.bytes%3D9000000&set=duration_ms%3D600000';
  const n10k = await frameCount(page, tenK);
  const t10k = await loadMs(page, tenK, n10k);
  const hundredK = '#s=ethernet-bulk-lossy&set=apps.0.bytes%3D100000000&set=duration_ms%3D1200000&set=links.eth.faults%3D%5B%5D';
  const n100k = await frameCount(page, hundredK);
  const t100k = await loadMs(page, hundredK, n100k);
  const scroll = await scrollFps(page);
  const heap = await heapUsed(page);
  const zoom = await wheelZoom(page);
  const play = await playFps(page);
  await browser.close();
  console.log(`stackscope bench:web on ${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Chromium headless, 1280x720`);
  console.log(`first render (Arduino scenario, 18 frames):     ${first.first.toFixed(0)} ms from navigation`);
  console.log(`run ${n10k} frames, first rows on screen:       ${t10k.first.toFixed(0)} ms from navigation; the whole run ${t10k.whole.toFixed(0)} ms`);
  console.log(`run ${n100k} frames, first rows on screen:      ${t100k.first.toFixed(0)} ms from navigation; the whole run ${t100k.whole.toFixed(0)} ms`);
  console.log(`scrolling ${scroll.rows} rows:                     ${scroll.fps.toFixed(1)} frames per second`);
  console.log(`JS heap with ${n100k} frames on screen:           ${(heap / 2 ** 20).toFixed(0)} MB after a GC`);
  console.log(`ladder wheel zoom from Fit (${n100k} frames):     ${zoom.fit}`);
  console.log(`ladder wheel zoom, zoomed in:                   ${zoom.zoomed}`);
  console.log(`Play at 100x on ${n100k} frames:                  ${play.toFixed(1)} frames per second`);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `first load, gzipped: JS ${kb(firstLoad.js!)} + wasm ${kb(firstLoad.wasm!)} + CSS ${kb(firstLoad.css!)} + other ${kb(firstLoad.other!)} = ${kb(Object.values(firstLoad).reduce((a, b) => a + b, 0))}`,
  );
  console.log(
    `built app, gzipped: JS ${gz('dist/assets', '.js') + gz('dist/assets', '.mjs')} B, CSS ${gz('dist/assets', '.css')} B, wasm ${gz('dist/assets', '.wasm')} B`,
  );
} finally {
  server.kill();
}
