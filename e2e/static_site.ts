// The built site as a static host serves it: dist/ under a folder of the host's (a class's
// copy at /courses/net/stackscope/, say), every other path a 404. Used by static_site.spec.ts
// and `npm run bench:web`, which also reads from it what the first load downloads.
import { chromium, type Browser, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.hex': 'text/plain',
};

export interface StaticSite {
  /** The site's address, ending in "/". */
  url: string;
  /** Every path asked for outside the folder, or of a file dist/ does not have. */
  missing: string[];
  close(): Promise<void>;
}

/** Serves `dir` at http://127.0.0.1:port`prefix` (prefix begins and ends with "/"). */
export async function serveStatic(dir: string, prefix: string, port: number): Promise<StaticSite> {
  const missing: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rel = path.startsWith(prefix) ? normalize(path.slice(prefix.length) || 'index.html') : null;
    const file = rel !== null && !rel.startsWith('..') ? join(dir, rel) : null;
    if (file === null || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      missing.push(path);
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    missing,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A file's gzipped size, as a host compressing at level 9 sends it. */
export function gzippedBytes(dir: string, rel: string): number {
  return gzipSync(readFileSync(join(dir, rel)), { level: 9 }).length;
}

/** What a page fetched from the site, by kind (js, wasm, css, other), gzipped: the files of
 *  dist/ named by `urls` (addresses under `siteUrl`). */
export function downloadByKind(dir: string, siteUrl: string, urls: readonly string[]): Record<string, number> {
  const bytes: Record<string, number> = { js: 0, wasm: 0, css: 0, other: 0 };
  for (const u of new Set(urls)) {
    if (!u.startsWith(siteUrl)) continue;
    const rel = decodeURIComponent(new URL(u).pathname.slice(new URL(siteUrl).pathname.length)) || 'index.html';
    const ext = extname(rel).slice(1);
    const kind = ext === 'js' || ext === 'mjs' ? 'js' : ext === 'wasm' || ext === 'css' ? ext : 'other';
    bytes[kind]! += gzippedBytes(dir, rel);
  }
  return bytes;
}

/** Debian's Chromium, headless, with the page at 1280 x 720 and every request the page and
 *  its workers make recorded in `fetched` (the benchmarks' way to see what was downloaded). */
export async function benchPage(): Promise<{ browser: Browser; page: Page; fetched: string[] }> {
  const browser = await chromium.launch({
    executablePath: '/usr/lib/chromium/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const fetched: string[] = [];
  page.context().on('request', (r) => fetched.push(r.url()));
  await page.addInitScript(FIRST_ROWS_SCRIPT);
  return { browser, page, fetched };
}

// When the first packet rows reached the screen (a long run's rows come while it goes on),
// and when the whole run did (its summary, with the trace hash only a run that ended has):
// the animation frame after they entered the page runs just before the paint that shows
// them. Polling (Playwright's wait) only sees them once the main thread is free, after
// whatever work follows that paint (the ladder and the graphs, which take the run one paint
// after the list). Passed as text: tsx would wrap named functions in a helper the page does
// not have.
const FIRST_ROWS_SCRIPT = `(() => {
  const seen = new MutationObserver(() => {
    if (!window.__firstRowsAt && document.querySelector('[role="grid"][aria-label="Packets"] .pl-body [role="row"]')) {
      window.__firstRowsAt = true;
      requestAnimationFrame(() => { window.__firstRowsMs = performance.now(); });
    }
    const summary = document.querySelector('[data-testid="run-summary"]');
    if (summary && / trace [0-9a-f]{16}$/.test(summary.textContent) && !window.__wholeRunAt) {
      window.__wholeRunAt = true;
      requestAnimationFrame(() => { window.__wholeRunMs = performance.now(); });
    }
    if (window.__firstRowsAt && window.__wholeRunAt) seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true, characterData: true });
})()`;

/** Milliseconds from navigation to the paint of the whole run, ended (its summary shown). */
export async function wholeRunMs(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { __wholeRunMs?: number }).__wholeRunMs, undefined, { timeout: 300_000 });
  return (await handle.jsonValue()) as number;
}

/** Milliseconds from navigation to the paint of the first packet rows (after they are on the page). */
export async function firstRowsMs(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { __firstRowsMs?: number }).__firstRowsMs);
  return (await handle.jsonValue()) as number;
}
