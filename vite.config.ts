import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The page: web/index.html and web/src, static files from public/, built into dist/.
// The wasm engine must stay a file of its own (never inlined as a data: URL) so the worker
// streams it; workers are ES modules like the rest.
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [react()],
  build: { outDir: '../dist', emptyOutDir: true, assetsInlineLimit: 0, target: 'es2022' },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
