// A long run in the page: its progress in words (frames and virtual time, growing), Cancel
// stops it at once (a fresh worker takes the next run, which would otherwise wait for the
// long one to end), and the page stays usable.
import { copyFileSync, mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseScenario, openPage, packetRows, shot, SHOTS, waitForRun } from './helpers.ts';

/** 1 GB over 10 Mbit/s: some 800 s of virtual time and a million frames, far longer than
 *  any test waits for. */
const LONG = '#s=ethernet-bulk-lossy&set=apps.0.bytes%3D1000000000&set=duration_ms%3D2000000';

/** The progress line's frames and seconds, or null while it says something else. */
async function progressOf(page: Page): Promise<{ frames: number; seconds: number } | null> {
  const text = (await page.getByTestId('run-progress').textContent()) ?? '';
  const m = /^Running: ([\d\u00a0]+) frames?, ([\d.]+) s of 2000 s$/.exec(text);
  return m ? { frames: Number(m[1]!.replace(/\u00a0/g, '')), seconds: Number(m[2]) } : null;
}

/** Waits until the progress line shows more frames and more virtual time than `than`. */
async function growsPast(page: Page, than: { frames: number; seconds: number }): Promise<{ frames: number; seconds: number }> {
  let now = than;
  await expect
    .poll(async () => {
      now = (await progressOf(page)) ?? than;
      return now.frames > than.frames && now.seconds > than.seconds;
    })
    .toBe(true);
  return now;
}

function keepShot(name: string): void {
  mkdirSync('/work/scratch/shots-progress', { recursive: true });
  copyFileSync(`${SHOTS}/${name}.png`, `/work/scratch/shots-progress/${name}.png`);
}

test('a long run shows growing progress, Cancel stops it, and the next scenario runs at once', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`/${LONG}`);
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await expect(page.locator('.pl-empty')).toContainText('The first run is going on');
  const first = await growsPast(page, { frames: 0, seconds: 0 });
  const later = await growsPast(page, first);
  await shot(page, 'progress-running');
  keepShot('progress-running');
  await page.getByLabel('Presenter').check();
  await growsPast(page, later);
  await shot(page, 'progress-running-presenter');
  keepShot('progress-running-presenter');
  await page.getByLabel('Presenter').uncheck();

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run cancelled' })).toBeVisible();
  await expect(page.getByTestId('run-progress')).toHaveCount(0);
  await expect(page.locator('.pl-empty')).toContainText('Run cancelled: no run to show');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await shot(page, 'progress-cancelled');
  keepShot('progress-cancelled');

  // The 1 GB run would go on for minutes in a worker that was not stopped; the next run
  // finishes well within the expect timeout only in a fresh one.
  await chooseScenario(page, /^Two hosts over SLIP at 57600 baud/);
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await expect(page.getByText('Run cancelled')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Cancel keeps the run before on show, and Presenter type keeps the progress line whole', async ({ page }) => {
  const errors = await openPage(page, '#s=ethernet-bulk-lossy');
  await waitForRun(page);
  await page.getByLabel('Presenter').check();
  await page.getByRole('button', { name: 'Parameters panel' }).click(); // folded at 1280 px
  const app = page.locator('details').filter({ has: page.locator('summary', { hasText: 'App 0: bulk_sender' }) });
  await app.locator('summary').click();
  // A long duration first (the 1 MB transfer still ends in seconds), then a long transfer.
  const duration = page.getByLabel('Duration (ms)', { exact: true });
  await duration.fill('2000000');
  await duration.press('Enter');
  await expect(page).toHaveURL(/set=duration_ms%3D2000000/);
  await expect(page.getByTestId('run-summary')).toContainText('2000.000 s simulated');
  const ran = await waitForRun(page);
  const firstRow = await packetRows(page).first().textContent();
  const rowsBefore = await packetRows(page).count();
  expect(rowsBefore).toBeGreaterThan(5);
  const bytes = app.getByLabel('Bytes', { exact: true });
  await bytes.fill('1000000000');
  await bytes.press('Enter');
  const line = page.getByTestId('run-progress');
  await expect(line).toBeVisible();
  await expect(page.getByTestId('run-summary')).toHaveCount(0);
  await expect.poll(async () => /^Running: [\d\u00a0]+ frames, [\d.]+ s of 2000 s$/.test((await line.textContent()) ?? '')).toBe(true);
  // Whole at 1280 px in presenter type: its words are not cut (the box holds all of them).
  const words = line.locator('span');
  expect(await words.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await shot(page, 'progress-params-presenter');
  keepShot('progress-params-presenter');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run cancelled' })).toBeVisible();
  await expect(page.getByTestId('run-summary')).toHaveText(ran);
  expect(await packetRows(page).count()).toBe(rowsBefore);
  await expect(packetRows(page).first()).toHaveText(firstRow!);
  await shot(page, 'progress-cancelled-kept-presenter');
  keepShot('progress-cancelled-kept-presenter');
  expect(errors).toEqual([]);
});
