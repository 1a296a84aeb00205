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

test("the NFC paper's packet lists open under the table, each beside our capture", async ({ page }) => {
  const errors = await openPage(page, '#s=nfc-bridge-sessions');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('outside', { timeout: 60_000 });
  // the paper's average: the mean over 50 placements of the stacks' timer ticks
  await expect(table.locator('tbody tr').filter({ hasText: 'Fig. 5.6 latency' })).toContainText('mean of 50 runs');
  const fig = table.locator('details.replay-figure').filter({ hasText: 'Fig. 5.10' });
  await expect(fig.locator('summary')).toHaveText('Fig. 5.10 beside run fig510, link eth: 9 of 9 TCP rows the same segment');
  await fig.locator('summary').click();
  const rows = fig.locator('tbody tr');
  await expect(rows).toHaveCount(11);
  await expect(rows.nth(0)).toContainText('Who has 192.168.1.202?');
  await expect(rows.nth(5)).toContainText('[PSH, ACK] Seq=1 Ack=1 Win=8096 Len=1024');
  await expect(fig).toContainText('its Seq=0 and MSS=1024 make it the SYN-ACK');
  await shot(page, 'replay-nfc-figures');
  expect(errors).toEqual([]);
});
