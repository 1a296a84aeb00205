// The replays in the page: a seed's table beside the simulation, above the usual views, and
// following a changed parameter.
import { expect, test } from '@playwright/test';
import { openPage, packetRows, shot } from './helpers.ts';

test("the Arduino ping replay: the seed's figures beside the simulated ones", async ({ page }) => {
  const errors = await openPage(page, '#s=arduino-ping');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('6 ok, 0 outside, 3 information', { timeout: 60_000 });
  const line56 = table.locator('tbody tr').filter({ hasText: '56 B, line theory' });
  await expect(line56).toContainText('29.861');
  await expect(line56).toContainText('✓ ok');
  await line56.click();
  await expect(table).toContainText('leaves out the END bytes');
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await shot(page, 'replay-arduino-ping');
  expect(errors).toEqual([]);
});

test('a changed parameter moves the figures: 5 ms of converter latency each way is outside the seed', async ({ page }) => {
  await openPage(page, '#s=arduino-ping&set=links.serial.latency_us%3D5000');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('3 ok, 3 outside, 3 information', { timeout: 60_000 });
  await expect(table).toContainText('with 1 changed parameter');
  // the line-theory runs set their own latency (0): still exact
  await expect(table.locator('tbody tr').filter({ hasText: '548 B, line theory' })).toContainText('✓ ok');
  await expect(table.locator('tbody tr').filter({ hasText: '56 B, measured' }).filter({ hasNotText: 'no converter' })).toContainText('✗ outside');
});
