// The replays in the page: a seed's table beside the simulation, above the usual views, and
// following a changed parameter.
import { expect, test } from '@playwright/test';
import { openPage, packetRows, shot, waitForRun } from './helpers.ts';

test("the Arduino ping replay: the seed's figures beside the simulated ones", async ({ page }) => {
  const errors = await openPage(page, '#s=arduino-ping');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('3 match the paper, 6 match the corrected theory, 0 differ (shown, not judged)', {
    timeout: 60_000,
  });
  const line56 = table.locator('tbody tr').filter({ hasText: '56 B, line theory' });
  // judged against the theory with the END bytes, not the paper's 29.2: the row says so
  await expect(line56).toContainText('29.86');
  await expect(line56).toContainText('theory 29.86');
  await expect(line56).toContainText('✓ matches the corrected theory');
  // what the theory is, from the replay file, cut short in the cell and whole on hover
  await expect(line56.locator('.replay-against')).toHaveAttribute('title', /END bytes counted, which the seed's 29\.2 ms leaves out$/);
  await line56.click();
  await expect(table.locator('tr.replay-why')).toContainText('Judged against a corrected theory (29.86), not the paper: the wire time with');
  await expect(table).toContainText('leaves out the END bytes');
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await shot(page, 'replay-arduino-ping');
  expect(errors).toEqual([]);
});

test('a changed parameter moves the figures: 5 ms of converter latency each way is outside the seed', async ({ page }) => {
  await openPage(page, '#s=arduino-ping&set=links.serial.latency_us%3D5000');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText(/, 3 outside the tolerance, 0 differ \(shown, not judged\)$/, { timeout: 60_000 });
  await expect(table).toContainText('with 1 changed parameter');
  // the line-theory runs set their own latency (0): still exact
  await expect(table.locator('tbody tr').filter({ hasText: '548 B, line theory' })).toContainText('✓ matches');
  await expect(table.locator('tbody tr').filter({ hasText: '56 B, measured' }).filter({ hasNotText: 'no converter' })).toContainText('✗ outside');
});

test("the NFC paper's packet lists open under the table, each beside our capture", async ({ page }) => {
  const errors = await openPage(page, '#s=nfc-bridge-sessions');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('match the paper', { timeout: 60_000 });
  // the paper's average: the mean over 50 placements of the stacks' timer ticks
  await expect(table.locator('tbody tr').filter({ hasText: 'Fig. 5.6 latency' })).toContainText('mean of 50 runs');
  const fig = table.locator('details.replay-figure').filter({ hasText: 'Fig. 5.10' });
  await expect(fig.locator('summary')).toHaveText('Fig. 5.10 beside run fig510, link eth: 11 of 11 rows matched, 0 differing, 0 missing, 0 extra');
  await fig.locator('summary').click();
  const rows = fig.locator('tbody tr');
  await expect(rows).toHaveCount(11);
  await expect(rows.nth(0)).toContainText('= matched');
  await expect(rows.nth(0)).toContainText('192.168.1.102 asks');
  await expect(rows.nth(5)).toContainText('PSH, ACK');
  await expect(fig).toContainText('its Seq=0 and MSS=1024 make it the SYN-ACK');
  // Fig. 5.6: each row's mark in words, the count, and how many tick placements give the
  // paper's sequence; the marks the rows carry add up to the summary's counts
  const f56 = table.locator('details.replay-figure').filter({ hasText: 'Fig. 5.6 beside' });
  const head = f56.locator('summary');
  await expect(head).toHaveText(
    /^Fig\. 5\.6 beside run fig56, link eth: \d+ of 14 rows matched, \d+ differing, \d+ missing, \d+ extra; the seed's sequence of TCP segments in \d+ of 50 tick placements \(run fig56-avg\)$/,
  );
  await head.click();
  const marks = f56.locator('tbody tr');
  const counted = /: (\d+) of 14 rows matched, (\d+) differing, (\d+) missing, (\d+) extra/
    .exec((await head.textContent())!)!
    .slice(1)
    .map(Number);
  const shown = await Promise.all(['matched', 'differing', 'missing', 'extra'].map((m) => f56.locator(`tbody tr[data-mark="${m}"]`).count()));
  expect(shown).toEqual(counted);
  await expect(marks).toHaveCount(counted.reduce((a, b) => a + b, 0));
  // a row that does not match says so in words: Fig. 5.8 misses rows of the paper's (its
  // mechanism is not modelled yet: issue 17; when it is, pick another figure here)
  const f58 = table.locator('details.replay-figure').filter({ hasText: 'Fig. 5.8 beside' });
  await f58.locator('summary').click();
  const missing = Number(/(\d+) missing/.exec((await f58.locator('summary').textContent())!)![1]);
  expect(missing).toBeGreaterThan(0);
  await expect(f58.locator('tbody tr[data-mark="missing"]')).toHaveCount(missing);
  await expect(f58.locator('tbody tr[data-mark="missing"]').first()).toContainText('missing');
  await shot(page, 'replay-nfc-figures');
  // the run picker: a run that repeats (50 tick placements) opens any one of its repetitions
  const summary = page.getByTestId('run-summary');
  const asWritten = await waitForRun(page);
  await table.getByLabel('Run in the views').selectOption('fig56-avg');
  await expect(page).toHaveURL(/run=fig56-avg(&|$)/);
  // the averaged run's timers run from boot (the scenario as written starts them with the
  // connection, tcp_timer_on_demand): another trace
  await expect(summary).not.toHaveText(asWritten);
  const first = (await summary.textContent()) ?? '';
  const rep = table.getByLabel('Repetition in the views');
  await expect(rep.locator('option')).toHaveCount(50);
  await rep.selectOption({ label: 'repetition 2 of 50' });
  await expect(page).toHaveURL(/run=fig56-avg\.2(&|$)/);
  // its timers tick 10 and 70 ms later than the first repetition's: another trace
  await expect(summary).not.toHaveText(first);
  // and the first repetition again: the same trace as before
  await rep.selectOption({ label: 'repetition 1 of 50' });
  await expect(summary).toHaveText(first);
  expect(errors).toEqual([]);
});

test('mTCP: rows judged against a corrected theory say so and why, and any run opens in the views', async ({ page }) => {
  const errors = await openPage(page, '#s=mtcp-fixed-window');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('1 matches the paper, 6 match the corrected theory, 0 differ (shown, not judged)', {
    timeout: 60_000,
  });
  await expect(table.getByRole('columnheader', { name: 'Δ paper' })).toBeVisible();
  // 10 MB: the paper's 2.776 Mbit/s is far from ours; the row is judged against 8 Mbit/s and
  // shows both distances.
  const tenMb = table.locator('tbody tr').filter({ hasText: 'cwnd 20000, 10 MB, receiver' });
  // the deviation column: ours (7.01) against the paper's 2.776, four significant digits
  const cells = tenMb.locator('td');
  await expect(cells.nth(2)).toHaveText('2.776');
  await expect(cells.nth(3)).toHaveText(/^7\.0\d\d$/);
  await expect(cells.nth(4)).toHaveText(/^\+15\d %$/);
  await expect(tenMb).toContainText(/theory 8 \(−1\d\.\d %\): cwnd\/RTT = 8 Mbit\/s/);
  await expect(tenMb).toContainText('✓ matches the corrected theory');
  // the sender's figure: the paper's (the copy into its socket buffer) shown, ours judged
  // against cwnd/RTT, with the reason on click
  const sender = table.locator('tbody tr').filter({ hasText: 'cwnd 20000, 1 MB, sender' });
  await expect(sender.locator('td').nth(2)).toHaveText('32900');
  await expect(sender).toContainText('theory 8');
  await expect(sender).toContainText('✓ matches the corrected theory');
  await sender.click();
  await expect(table.locator('tr.replay-why')).toContainText('Judged against a corrected theory (8), not the paper: cwnd/RTT');
  // from the keyboard too
  await sender.press('Enter');
  await expect(table.locator('tr.replay-why')).toHaveCount(0);
  await sender.press('Enter');
  await expect(table.locator('tr.replay-why')).toContainText('Judged against a corrected theory');
  // the run picker: the 40000 B run in the views
  const before = await page.getByTestId('run-summary').textContent();
  const picker = table.getByLabel('Run in the views');
  const options = await picker.locator('option').allTextContents();
  await picker.selectOption({ label: options.find((o) => o.includes('40'))! });
  await expect(page.getByTestId('run-summary')).not.toHaveText(before!);
  await expect(page).toHaveURL(/run=w40-10mb/);
  // the 40000 B run sends 10 MB: its packet list ends far beyond the 1 MB run's
  await expect(picker).toHaveValue('w40-10mb');
  // the table folds away
  await table.getByRole('button', { name: 'Fold the replay table' }).click();
  await expect(table.locator('table.replay-table')).toHaveCount(0);
  await table.getByRole('button', { name: 'Show the replay table' }).click();
  await expect(table.locator('table.replay-table')).toBeVisible();
  await shot(page, 'replay-mtcp');
  expect(errors).toEqual([]);
});

test("the CSLIP sweep: ours drawn as curves over line speed with the paper's points on them", async ({ page }) => {
  const errors = await openPage(page, '#s=cslip-link-speed');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('match the paper', { timeout: 60_000 });
  await table.getByRole('button', { name: 'Sweep figures' }).click();
  const fig = table.getByRole('figure', { name: 'Bulk throughput over line speed' });
  await expect(fig).toContainText('CSLIP');
  await expect(fig).toContainText('SLIP6');
  await expect(fig).toContainText('the paper');
  // 3 series x 6 speeds: ours as dots, the paper's as squares, each titled with both figures
  await expect(fig.locator('circle.sweep-ours')).toHaveCount(18);
  await expect(fig.locator('rect.sweep-seed')).toHaveCount(18);
  await expect(fig.locator('rect.sweep-seed title').first()).toHaveText(/^CSLIP 2\.4 kbps: paper 1\.6 kbit\/s \(paper 1\.6, ours \d\.\d+; paper\)$/);
  // the paper's point sits on its value: SLIP6 at 115.2 kbps (56.7) below SLIP's (75.6)
  const y = async (row: RegExp) =>
    Number(
      await fig
        .locator('rect.sweep-seed')
        .filter({ has: page.locator('title', { hasText: row }) })
        .getAttribute('y'),
    );
  expect(await y(/^SLIP6 115\.2 kbps: paper/)).toBeGreaterThan(await y(/^SLIP 115\.2 kbps: paper/));
  await expect(table.getByRole('figure', { name: 'Ping round trip over line speed' }).locator('rect.sweep-seed')).toHaveCount(12);
  await shot(page, 'replay-cslip-sweep');
  // the drawing fits the table's region whole, in presenter type too
  for (const presenter of [false, true]) {
    await page.getByLabel('Presenter').setChecked(presenter);
    const f = (await fig.locator('svg').boundingBox())!;
    const region = (await table.boundingBox())!;
    expect(f.y + f.height, `presenter ${presenter}`).toBeLessThanOrEqual(region.y + region.height + 0.5);
  }
  await shot(page, 'replay-cslip-sweep-presenter');
  await page.getByLabel('Presenter').uncheck();
  await table.getByRole('button', { name: 'Rows' }).click();
  await expect(table.locator('table.replay-table')).toBeVisible();
  // a row not judged says so, with its reason on hover, on click and from the keyboard
  const notJudged = table.locator('tbody tr').filter({ hasText: 'CSLIP 115.2 kbps' });
  await expect(notJudged.locator('.replay-not-judged')).toHaveText('not judged');
  await expect(notJudged).toHaveAttribute('title', /^Not judged: /);
  await notJudged.click();
  await expect(table.locator('tr.replay-why')).toContainText('Not judged:');
  await notJudged.press('Enter');
  await expect(table.locator('tr.replay-why')).toHaveCount(0);
  await notJudged.press('Enter');
  await expect(table.locator('tr.replay-why')).toContainText('Not judged: ');
  expect(errors).toEqual([]);
});

test("the Arduino echo sweep: throughput over connections, the seed's share of the line on our curves", async ({ page }) => {
  const errors = await openPage(page, '#s=arduino-echo-throughput');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toContainText('differ', { timeout: 60_000 });
  await table.getByRole('button', { name: 'Sweep figure' }).click();
  const fig = table.getByRole('figure', { name: 'Echo throughput over parallel connections' });
  // 2 series x 7 connection counts, the seed's 80 % at 1 connection among its points
  await expect(fig.locator('circle.sweep-ours')).toHaveCount(14);
  await expect(fig.locator('rect.sweep-seed')).toHaveCount(14);
  await expect(fig.locator('rect.sweep-seed title').first()).toHaveText(
    /^1 connection: the line's limit with a 2-MSS window: paper 36\.86 kbit\/s \(paper 36\.86, ours \d\d\.?\d*; theory\)$/,
  );
  // a point whose row is not judged says so
  await expect(fig.locator('rect.sweep-seed title').filter({ hasText: /^20 connections, 82 %/ })).toHaveText(/; not judged\)$/);
  await shot(page, 'replay-arduino-sweep');
  expect(errors).toEqual([]);
});

test("the long session's size-mix sweep: the gain over the share of large requests, each seed's point, the paper's 29.32 % at 8 of 68", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await openPage(page, '#s=nfc-long-session');
  const table = page.getByRole('region', { name: 'Replay against the seed' });
  await expect(table.getByTestId('replay-summary')).toHaveText('7 match the paper, 0 match the corrected theory, 6 differ (shown, not judged)', {
    timeout: 150_000,
  });
  // a reason quotes our figures filled from the runs, written as the table writes figures
  await table.locator('tbody tr').filter({ hasText: 'VJ RTO, spurious retx, appliance' }).click();
  await expect(table.locator('tr.replay-why')).toContainText(/The end user's tiny replies are resent too, \d+(\.\d{1,3})? segments on average/);
  await expect(table.locator('tr.replay-why')).not.toContainText('{');
  // the ordering is judged; the gain is not, and says why
  await expect(table.locator('tbody tr').filter({ hasText: 'Ordering: VJ slower than Alg. 1' }).first()).toContainText('matches the paper');
  await expect(table.locator('tbody tr').filter({ hasText: 'Alg. 1 over VJ, latency' })).toContainText('not judged');
  await table.getByRole('button', { name: 'Sweep figure' }).click();
  const fig = table.getByRole('figure', { name: "The long session's gain over the size mix" });
  await expect(fig).toContainText('Alg. 1 + mod. delayed ACK');
  await expect(fig).toContainText('each seed');
  await expect(fig.locator('.sweep-note')).toContainText('sit at 8 of 68');
  // 2 series x 8 mixes: the means as dots on the curves, every one of the 5 seeds' points beside them
  await expect(fig.locator('circle.sweep-ours')).toHaveCount(16);
  await expect(fig.locator('circle.sweep-each')).toHaveCount(80);
  // the paper's two gains, and only those, as squares at 8 of 68
  await expect(fig.locator('rect.sweep-seed')).toHaveCount(2);
  await expect(fig.locator('rect.sweep-seed title').first()).toHaveText(
    /^Alg\. 1, 8 of 68 requests large: paper 29\.32 % less latency than the vj run \(paper 29\.32, ours \d+\.?\d*; not judged\)$/,
  );
  // the y axis goes below 0: the modified delayed ACK's gain is a loss with no recipes
  const zero = (await fig.locator('circle.sweep-ours').first().getAttribute('cy'))!;
  const loss = fig.locator('circle.sweep-ours').filter({ has: page.locator('title', { hasText: /^Alg\. 1 \+ mod\. delayed ACK, 0 of 68/ }) });
  expect(Number(await loss.getAttribute('cy'))).toBeGreaterThan(Number(zero));
  await shot(page, 'replay-long-session-sweep');
  expect(errors).toEqual([]);
});

for (const presenter of [false, true])
  test(`at 1280 x 720 with the table open the packet list keeps a usable height (Presenter ${presenter ? 'on' : 'off'})`, async ({ page }) => {
    const errors = await openPage(page, '#s=mtcp-fixed-window');
    const table = page.getByRole('region', { name: 'Replay against the seed' });
    await expect(table.getByTestId('replay-summary')).toContainText('match', { timeout: 60_000 });
    if (presenter) await page.getByLabel('Presenter').check();
    await expect(table.locator('table.replay-table')).toBeVisible();
    // the grid scrolls: its box less its head row is the list in view
    const list = page.getByRole('grid', { name: 'Packets' });
    const rowBox = (await packetRows(page).first().boundingBox())!;
    const listBox = (await list.boundingBox())!;
    const rowsInView = (listBox.height - rowBox.height) / rowBox.height;
    await shot(page, `replay-layout-presenter-${presenter ? 'on' : 'off'}`);
    // the table open above it, at least ten rows of the packet list in view (seven in
    // presenter type, whose rows are 26 px: the list and the ladder share the top row)
    expect(rowsInView, `${listBox.height} px of list, rows of ${rowBox.height} px`).toBeGreaterThanOrEqual(presenter ? 7 : 10);
    // folded, the table is its head line alone and the list grows
    await table.getByRole('button', { name: 'Fold the replay table' }).click();
    await expect.poll(async () => (await list.boundingBox())!.height).toBeGreaterThan(listBox.height + 60);
    expect(errors).toEqual([]);
  });
