// `npm run bench:download`: what the built page (dist/, `npm run build:web` first) downloads on
// its first load, measured as `npm run bench:web` does (navigation to the first run on screen,
// the workers' requests included, gzip -9 as a host sends it), but alone and per file, so a
// change to the bundle can be weighed in seconds. Printed, not asserted. PW_PORT + 1 is the
// port (the static-site spec's), 4174 without it.
import { extname } from 'node:path';
import { benchPage, downloadByKind, gzippedBytes, serveStatic } from './static_site.ts';

const site = await serveStatic('dist', '/', Number(process.env.PW_PORT ?? 4173) + 1);
try {
  const { browser, page, fetched } = await benchPage();
  await page.goto(site.url);
  await page.getByTestId('run-summary').filter({ hasText: 'frames' }).waitFor({ timeout: 60_000 });
  await browser.close();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const files = [...new Set(fetched)].filter((u) => u.startsWith(site.url)).map((u) => new URL(u).pathname.slice(1) || 'index.html');
  for (const f of files.filter((f) => extname(f) !== '.html').sort()) console.log(`${kb(gzippedBytes('dist', f)).padStart(9)}  ${f}`);
  const by = downloadByKind('dist', site.url, fetched);
  const total = Object.values(by).reduce((a, b) => a + b, 0);
  console.log(`first load, gzipped: JS ${kb(by.js!)} + wasm ${kb(by.wasm!)} + CSS ${kb(by.css!)} + other ${kb(by.other!)} = ${kb(total)}`);
} finally {
  await site.close();
}
