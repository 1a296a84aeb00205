// A long run in the page: its progress in words (frames and virtual time, growing), the
// views filling with the run so far while it goes on, Cancel stopping it at once (a fresh
// worker takes the next run, which would otherwise wait for the long one to end) and
// keeping what it ran, and the page staying usable.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseScenario, openPage, packetRows, shot, SHOTS, waitForRun } from './helpers.ts';

/** 2 GB over 100 Mbit/s without loss, for 2000 s: some 20 million frames, far more than
 *  the engine makes while any test waits (a million takes it well under a minute). */
const LONG = '#s=ethernet-bulk-lossy&set=apps.0.bytes%3D2000000000&set=duration_ms%3D2000000&set=links.eth.rate_bps%3D100000000&set=links.eth.faults%3D%5B%5D';

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

/** The packets the list says it has (its count, "N packets"), 0 before it has any. */
async function listedPackets(page: Page): Promise<number> {
  const count = page.locator('.pl-count').first();
  if (!(await count.count())) return 0;
  return Number(/^(\d+) packets$/.exec((await count.textContent()) ?? '')?.[1] ?? 0);
}

/** The frames the ladder's title says are in view. */
async function ladderFrames(page: Page): Promise<number> {
  const text = (await page.locator('.tl-title').filter({ hasText: 'Ladder' }).textContent()) ?? '';
  return Number(/(\d+) frames? in view/.exec(text)?.[1] ?? 0);
}

function keepShot(name: string): void {
  mkdirSync('/work/scratch/shots-progress', { recursive: true });
  copyFileSync(`${SHOTS}/${name}.png`, `/work/scratch/shots-progress/${name}.png`);
}

test('a long run fills the views as it goes, Cancel keeps what it ran, and the next scenario runs at once', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`/${LONG}`);
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await page.getByLabel('Presenter').check();
  await growsPast(page, { frames: 0, seconds: 0 });
  // The list and the ladder show the run so far, and it grows while the run goes on (the
  // engine makes a million frames in well under a minute: Cancel comes soon after).
  await expect.poll(() => listedPackets(page)).toBeGreaterThan(0);
  const listed = await listedPackets(page);
  await expect.poll(() => listedPackets(page)).toBeGreaterThan(listed);
  await expect.poll(() => ladderFrames(page)).toBeGreaterThan(0);
  await expect(packetRows(page).first()).toContainText('Who has 10.1.0.2?');
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await shot(page, 'progress-running-presenter');
  keepShot('progress-running-presenter');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run cancelled' })).toBeVisible();
  await expect(page.getByTestId('run-progress')).toHaveCount(0);
  // What it ran stays on show, said to be cut short (no trace hash: that names a whole run).
  await expect(page.getByTestId('run-summary')).toHaveText(/^\d+ frames, [\d.]+ s simulated, cut short$/);
  const kept = await listedPackets(page);
  expect(kept).toBeGreaterThan(listed);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await page.waitForTimeout(1500); // nothing more comes: the worker was ended
  expect(await listedPackets(page)).toBe(kept);
  await shot(page, 'progress-cancelled-presenter');
  keepShot('progress-cancelled-presenter');
  await page.getByLabel('Presenter').uncheck();

  // The 2 GB run would go on for minutes in a worker that was not stopped; the next run
  // finishes well within the expect timeout only in a fresh one.
  await chooseScenario(page, /^Two hosts over SLIP at 57600 baud/);
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await expect(page.getByText('Run cancelled')).toHaveCount(0);
  await expect(page.getByTestId('run-summary')).toContainText('trace ');
  expect(errors).toEqual([]);
});

test('A parameter that makes the run long: the views take the new run as it goes, Cancel keeps it, Presenter type keeps the progress line whole', async ({
  page,
}) => {
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
  const rowsBefore = await listedPackets(page);
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
  // The 1 GB run so far soon has more packets than the whole 1 MB run had.
  await expect.poll(() => listedPackets(page)).toBeGreaterThan(rowsBefore);
  await shot(page, 'progress-params-presenter');
  keepShot('progress-params-presenter');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run cancelled' })).toBeVisible();
  await expect(page.getByTestId('run-summary')).not.toHaveText(ran);
  await expect(page.getByTestId('run-summary')).toContainText('cut short');
  const kept = await listedPackets(page);
  expect(kept).toBeGreaterThan(rowsBefore);
  // Its capture so far exports whole: capinfos counts every packet the list shows.
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export pcapng', exact: true }).click();
  const file = await (await saved).path();
  expect(Number(/Number of packets:\s+(\d+)/.exec(execFileSync('capinfos', ['-M', '-c', '-r', file], { encoding: 'utf8' }))?.[1])).toBe(kept);
  await shot(page, 'progress-cancelled-kept-presenter');
  keepShot('progress-cancelled-kept-presenter');
  expect(errors).toEqual([]);
});
