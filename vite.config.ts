import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The built page's Content-Security-Policy: scripts only from the site itself, wasm compiled
 *  from what it fetched ('wasm-unsafe-eval'), no eval or `new Function` (the schema validators
 *  are compiled ahead of time, scripts/gen-validators.ts). Styles may be inline: React and D3
 *  set style attributes. Not in the dev server, whose hot reload injects inline scripts. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

function cspMeta(): Plugin {
  return {
    name: 'stackscope-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

const SRC = (dir: string) => fileURLToPath(new URL(`./web/src/${dir}`, import.meta.url));

/** A virtual module listing the JSON files of one folder, each file's name and title and its
 *  file name: the picker's entries for the replays (most of their bytes are the seeds'
 *  figures) and the lessons (with their validator and player), whose files load when one is
 *  chosen (ui/common/shipped.ts). */
function jsonIndex(id: string, dir: string): Plugin {
  return {
    name: `stackscope-${id}`,
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(source) {
      if (source !== `\0${id}`) return undefined;
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort();
      const index = files.map((file) => {
        this.addWatchFile(`${dir}/${file}`);
        const { name, title } = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { name: string; title: string };
        return { name, title, file };
      });
      return `export default ${JSON.stringify(index)};`;
    },
  };
}

// The page: web/index.html and web/src, static files from public/, built into dist/.
// base './': every URL of the built page (scripts, workers, the wasm, styles) is relative to
// the page, so dist/ works copied to any folder of any static host. The page keeps its state
// in the URL's hash (permalink.ts), never in its path, so links work under any folder too.
// The wasm engine must stay a file of its own (never inlined as a data: URL) so the worker
// streams it; workers are ES modules like the rest.
export default defineConfig({
  root: 'web',
  base: './',
  publicDir: '../public',
  plugins: [
    react(),
    cspMeta(),
    jsonIndex('virtual:replay-index', SRC('core/scenarios/replays')),
    jsonIndex('virtual:lesson-index', SRC('core/lessons/shipped')),
  ],
  build: { outDir: '../dist', emptyOutDir: true, assetsInlineLimit: 0, target: 'es2022' },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
