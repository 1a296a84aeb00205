import { defineConfig } from '@playwright/test';

// End-to-end tests in Debian's Chromium (no browser download): the built page served by
// `vite preview`, which Playwright starts and stops. Screenshots for review go to
// test-results/screenshots/. PW_PORT moves the server (two checkouts can test at once).
const port = Number(process.env.PW_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    launchOptions: {
      executablePath: '/usr/lib/chromium/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx vite build --logLevel warn && npx vite preview --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    timeout: 180_000,
    reuseExistingServer: false,
  },
});
