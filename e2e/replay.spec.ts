// The replays in the page: a seed's table beside the simulation, above the usual views, and
// following a changed parameter.
import { expect, test } from '@playwright/test';
import { openPage, packetRows, shot } from './helpers.ts';

test("the Arduino ping replay: the seed's figures beside the simulated ones", async ({ page }) => {
  const errors = await openPage(page, '#s=arduino-ping');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('3 match the paper, 3 match a corrected theory, 0 outside, 3 differ (shown, not judged)', {
    timeout: 60_000,
  });
  const line56 = table.locator('tbody tr').filter({ hasText: '56 B, line theory' });
  // judged against the theory with the END bytes, not the paper's 29.2: the row says so
  await expect(line56).toContainText('29.86');
  await expect(line56).toContainText('theory 29.86');
  await expect(line56).toContainText('✓ matches the corrected theory');
  await line56.click();
  await expect(table).toContainText('leaves out the END bytes');
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await shot(page, 'replay-arduino-ping');
  expect(errors).toEqual([]);
});

test('a changed parameter moves the figures: 5 ms of converter latency each way is outside the seed', async ({ page }) => {
  await openPage(page, '#s=arduino-ping&set=links.serial.latency_us%3D5000');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText(/, 3 outside, 3 differ \(shown, not judged\)$/, { timeout: 60_000 });
  await expect(table).toContainText('with 1 changed parameter');
  // the line-theory runs set their own latency (0): still exact
  await expect(table.locator('tbody tr').filter({ hasText: '548 B, line theory' })).toContainText('✓ matches');
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

test('mTCP: rows judged against a corrected theory say so, rows not judged say why, and any run opens in the views', async ({ page }) => {
  const errors = await openPage(page, '#s=mtcp-fixed-window');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('match a corrected theory', { timeout: 60_000 });
  await expect(table.getByRole('columnheader', { name: 'Δ paper' })).toBeVisible();
  // 10 MB: the paper's 2.776 Mbit/s is far from ours; the row is judged against 8 Mbit/s and
  // shows both distances.
  const tenMb = table.locator('tbody tr').filter({ hasText: 'cwnd 20000, 10 MB, receiver' });
  await expect(tenMb).toContainText(/\+\d+ %/);
  await expect(tenMb).toContainText('theory 8');
  await expect(tenMb).toContainText('✓ matches the corrected theory');
  // the sender's figure is shown, not judged, with its reason
  const sender = table.locator('tbody tr').filter({ hasText: 'cwnd 20000, 1 MB, sender' });
  await expect(sender).toContainText('not judged');
  await expect(sender).toHaveAttribute('title', /^Not judged: /);
  await sender.click();
  await expect(table.locator('tr.replay-why')).toContainText('Not judged:');
  // the run picker: the 40000 B run in the views
  const before = await page.getByTestId('run-summary').textContent();
  const picker = table.getByLabel('Run in the views');
  const options = await picker.locator('option').allTextContents();
  await picker.selectOption({ label: options.find((o) => o.includes('40'))! });
  await expect(page.getByTestId('run-summary')).not.toHaveText(before!);
  await expect(page).toHaveURL(/run=/);
  // the table folds away
  await table.getByRole('button', { name: 'Fold the replay table' }).click();
  await expect(table.locator('table.replay-table')).toHaveCount(0);
  await table.getByRole('button', { name: 'Show the replay table' }).click();
  await expect(table.locator('table.replay-table')).toBeVisible();
  await shot(page, 'replay-mtcp');
  expect(errors).toEqual([]);
});
