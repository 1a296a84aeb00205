// The built site (dist/) served from a folder of a static host, as a teacher would publish it:
// under a strict Content-Security-Policy, with no request leaving the folder, the page loads
// and runs a shipped scenario, a permalink opens its scenario, a lesson opens, the replays'
// table fills, and the live page connects its emulated Arduino; the first load leaves the
// lessons and the scenario validator to their first use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { packetRows, shot, waitForRun } from './helpers.ts';
import { serveStatic, type StaticSite } from './static_site.ts';

const PREFIX = '/courses/net/stackscope/';
// Playwright's own server (vite preview) has PW_PORT; this one the next port.
const PORT = Number(process.env.PW_PORT ?? 4173) + 1;

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic('dist', PREFIX, PORT);
});
test.afterAll(async () => {
  await site.close();
});

/** Console errors (a refused script or wasm is one), uncaught errors, and every CSP
 *  violation the page or a worker reports. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page: ${String(e)}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console: ${m.text()}`)));
  return problems;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
});

test('the built site under a sub-path: strict CSP, a scenario runs, a permalink, a lesson, the replays', async ({ page }) => {
  const problems = watch(page);
  await page.goto(site.url);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain('unsafe-eval;');
  await waitForRun(page);
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await expect(page.getByTestId('ladder-svg').locator('[data-frame-id]')).not.toHaveCount(0);

  // a permalink into the folder opens its scenario (the state is in the hash, not the path)
  await page.goto(`${site.url}#s=nfc-bridge-1080`);
  await expect(page.getByTestId('run-summary')).toContainText('frames');
  await expect(page.getByLabel('Topology')).toContainText('nfc');
  await expect(packetRows(page).first()).toBeVisible();

  // a lesson, from the picker
  const picker = page.getByLabel('Scenario');
  const lesson = await picker.locator('optgroup[label="Lessons"] option').first().getAttribute('value');
  await picker.selectOption(lesson!);
  await expect(page.getByTestId('lesson-caption')).toBeVisible();
  await expect(page).toHaveURL(/#.*lesson=/);

  // a replay, from the picker (its file is fetched when chosen): the seed's table beside the simulation
  await picker.selectOption('arduino-ping');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('match the paper', { timeout: 60_000 });
  await shot(page, 'static-site-replay');

  expect(await cspViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  expect(site.missing).toEqual([]);
});

test('the built site under a sub-path: the live page loads and connects its emulated Arduino', async ({ page }) => {
  const problems = watch(page);
  await page.goto(`${site.url}#s=arduino-live`);
  await page.getByRole('button', { name: 'Connect emulated Arduino' }).click();
  await expect(page.getByTestId('live-status')).toHaveText(/^Connected — Emulated Arduino \(avr8js\), 57600 baud/, { timeout: 20_000 });
  await page.getByRole('spinbutton', { name: 'Count', exact: true }).fill('2');
  await page.getByRole('spinbutton', { name: 'Interval (ms)' }).fill('200');
  await page.getByRole('button', { name: 'Ping', exact: true }).click();
  await expect(page.getByLabel('Ping output')).toContainText('2 packets transmitted, 2 received, 0% packet loss', { timeout: 20_000 });
  await shot(page, 'static-site-live');
  expect(await cspViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  expect(site.missing).toEqual([]);
});

/** The text of the built files the page has asked for so far (every request of its context,
 *  the workers' included). */
function fetchedText(urls: readonly string[]): string {
  return [...new Set(urls)]
    .filter((u) => u.startsWith(site.url) && /\.m?js$/.test(u))
    .map((u) => readFileSync(join('dist', decodeURIComponent(new URL(u).pathname.slice(new URL(site.url).pathname.length))), 'utf8'))
    .join('\n');
}

test('the built site under a sub-path: the lessons and the scenario validator load when first used', async ({ page }) => {
  const problems = watch(page);
  const fetched: string[] = [];
  page.context().on('request', (r) => fetched.push(r.url()));
  // what only the lessons' files, the player and the validators (Ajv's words) hold
  const first = JSON.parse(readFileSync('web/src/core/lessons/shipped/01-retransmission-timer.json', 'utf8')) as { name: string; description: string };
  const lessonData = first.description;
  const lessonPlayer = 'there is no lesson called';
  const validator = 'must NOT have additional properties';
  await page.goto(site.url);
  await waitForRun(page);
  await expect(packetRows(page).first()).toBeVisible();
  const firstLoad = fetchedText(fetched);
  expect(firstLoad.includes(lessonData), 'a lesson file in the first load').toBe(false);
  expect(firstLoad.includes(lessonPlayer), 'the lesson player in the first load').toBe(false);
  expect(firstLoad.includes(validator), 'a validator in the first load').toBe(false);

  // the picker lists the lessons all the same; choosing one fetches what it needs
  await page.getByLabel('Scenario').selectOption(`lesson:${first.name}`);
  await expect(page.getByTestId('lesson-caption')).toBeVisible();
  await expect(page.getByTestId('run-summary')).toContainText('frames');
  const later = fetchedText(fetched);
  expect(later.includes(lessonData), 'the lesson file fetched when chosen').toBe(true);
  expect(later.includes(lessonPlayer), 'the lesson player fetched when chosen').toBe(true);
  expect(later.includes(validator), 'the validators fetched when a lesson is chosen').toBe(true);
  expect(await cspViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  expect(site.missing).toEqual([]);
});

test('the built site under a sub-path: the filter, the details and the what-if menu load when first used', async ({ page }) => {
  const problems = watch(page);
  const fetched: string[] = [];
  page.context().on('request', (r) => fetched.push(r.url()));
  // what only the scenario schema, the filter's parser and the details trees hold
  const schema = (JSON.parse(readFileSync('web/src/core/scenarios/schema.json', 'utf8')) as { description: string }).description;
  const filterParser = 'is not a valid boolean.';
  const detailsTree = 'Transmission Control Protocol, Src Port: ';
  await page.goto(site.url);
  await waitForRun(page);
  await expect(packetRows(page).first()).toBeVisible();
  const firstLoad = fetchedText(fetched);
  expect(firstLoad.includes(schema), 'the scenario schema in the first load').toBe(false);
  expect(firstLoad.includes(filterParser), "the filter's parser in the first load").toBe(false);
  expect(firstLoad.includes(detailsTree), 'the details trees in the first load').toBe(false);

  // the filter box fetches its parser when used: it says what is wrong, and filters
  const filter = page.getByRole('combobox', { name: 'Filter' });
  await filter.fill('tcp.flags.syn == maybe');
  await expect(page.getByRole('status').filter({ hasText: filterParser })).toBeVisible();
  await filter.fill('tcp.port == 7');
  await expect(packetRows(page).first()).toBeVisible();
  await expect(packetRows(page).filter({ hasText: 'ICMP' })).toHaveCount(0);
  // the first selection fetches the details' body
  await packetRows(page).first().click();
  await expect(page.getByRole('region', { name: 'Packet details' })).toContainText(detailsTree);
  // the what-if menu, with the schema's delay range
  await packetRows(page).first().click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: /Drop this frame/ })).toBeVisible();
  const later = fetchedText(fetched);
  expect(later.includes(filterParser), "the filter's parser fetched when used").toBe(true);
  expect(later.includes(detailsTree), 'the details trees fetched with the first selection').toBe(true);
  expect(later.includes(schema), 'the schema fetched with the what-if menu').toBe(true);
  expect(await cspViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  expect(site.missing).toEqual([]);
});
