// The page in Chromium: runs, the four linked views, what-if, permalinks, export.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { chooseScenario, openPage, packetRows, shot, waitForRun } from './helpers.ts';

test('the page loads, runs the Arduino ping scenario, with no console error', async ({ page }) => {
  const errors = await openPage(page);
  await expect(page.getByLabel('Scenario')).toBeVisible();
  await expect(page.getByLabel('Topology')).toContainText('57600 baud');
  const rows = packetRows(page);
  await expect(rows.first()).toContainText('Echo (ping) request');
  await expect(rows.nth(1)).toContainText('Echo (ping) reply');
  await expect(page.getByTestId('ladder-svg').locator('[data-frame-id]')).not.toHaveCount(0);
  await shot(page, 'arduino-slip');
  expect(errors).toEqual([]);
});

test('the packet list paints before the ladder and the graphs take the run, which follow by themselves', async ({ page }) => {
  // What is drawn in the animation frame just before the paint that first shows rows.
  await page.addInitScript(`(() => {
    const seen = new MutationObserver(() => {
      if (!document.querySelector('[role="grid"][aria-label="Packets"] .pl-body [role="row"]')) return;
      seen.disconnect();
      requestAnimationFrame(() => {
        window.__atFirstRows = {
          arrows: document.querySelectorAll('[data-testid="ladder-svg"] [data-frame-id]').length,
          graphPaths: document.querySelectorAll('.pane-graphs svg path').length,
        };
      });
    });
    seen.observe(document, { childList: true, subtree: true });
  })()`);
  await openPage(page);
  await expect(packetRows(page).first()).toContainText('Echo (ping) request');
  await expect(page.getByTestId('ladder-svg').locator('[data-frame-id]')).not.toHaveCount(0);
  await expect(page.locator('.pane-graphs svg path')).not.toHaveCount(0);
  const atFirstRows = await page.waitForFunction(() => (window as unknown as { __atFirstRows?: object }).__atFirstRows);
  expect(await atFirstRows.jsonValue()).toEqual({ arrows: 0, graphPaths: 0 });
});

test('the NFC scenario shows the module-busy drop and the retransmissions', async ({ page }) => {
  const errors = await openPage(page);
  await chooseScenario(page, /^NFC bridge at 11.2 kbps/);
  const picker = page.getByLabel('Capture point');
  const options = await picker.locator('option').allTextContents();
  await picker.selectOption({ index: options.findIndex((o) => o.startsWith('nfc')) });
  const rows = packetRows(page);
  await expect(rows.filter({ hasText: 'module busy' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'TCP Retransmission' }).first()).toBeVisible();
  const ladder = page.getByTestId('ladder-svg');
  await expect(ladder.locator('.ld-arrow.retx').first()).toBeAttached();
  await expect(ladder.locator('.ld-arrow.dropped').first()).toBeAttached();
  await shot(page, 'nfc-bridge');
  expect(errors).toEqual([]);
});

test('selecting a row selects the same frame in the ladder and the details', async ({ page }) => {
  await openPage(page);
  const row = packetRows(page).nth(6);
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Packet details' })).toContainText('Transmission Control Protocol');
  await expect(page.getByRole('region', { name: 'Packet details' })).toContainText('Internet Protocol Version 4');
  await expect(page.getByTestId('ladder-svg').locator('.ld-arrow.selected')).toHaveCount(1);
  await shot(page, 'selection');
});

test("the ladder's zoom buttons narrow the view and Fit shows the whole run again", async ({ page }) => {
  await openPage(page);
  const bar = page.locator('.tl-title').filter({ hasText: 'Ladder' });
  const inView = async (): Promise<number> => Number(/(\d+) frames? in view/.exec((await bar.textContent()) ?? '')?.[1]);
  // the ladder takes the run one paint after the packet list: wait for its frames
  await expect.poll(inView).toBeGreaterThan(0);
  const whole = await inView();
  await bar.getByRole('button', { name: 'Zoom in' }).click();
  await bar.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(inView).toBeLessThan(whole);
  await bar.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(inView).toBe(whole);
});

test("the ladder's wheel zooms around the selected frame, a drag pans it without selecting or moving the cursor, a click selects", async ({ page }) => {
  await openPage(page);
  const bar = page.locator('.tl-title').filter({ hasText: 'Ladder' });
  const inView = async (): Promise<number> => Number(/(\d+) frames? in view/.exec((await bar.textContent()) ?? '')?.[1]);
  await expect.poll(inView).toBeGreaterThan(0);
  const whole = await inView();
  const row = packetRows(page).nth(6);
  await row.click();
  const selected = page.getByTestId('ladder-svg').locator('.ld-arrow.selected');
  await expect(selected).toHaveCount(1);
  const yOf = async () => {
    const b = (await selected.boundingBox())!;
    return b.y + b.height / 2;
  };
  const before = await yOf();
  const ladder = (await page.getByTestId('ladder-svg').boundingBox())!;
  const cursorText = async () => (await page.getByLabel('Playback').textContent()) ?? '';
  const cursorBefore = await cursorText();
  // The wheel, over another part of the ladder: the selected frame stays where it was.
  await page.mouse.move(ladder.x + ladder.width / 2, ladder.y + ladder.height * 0.8);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
  await expect.poll(inView).toBeLessThan(whole);
  expect(Math.abs((await yOf()) - before)).toBeLessThan(3);
  // A drag pans by as much as the pointer moved; the click that ends it does nothing else.
  const x = ladder.x + 4;
  const y0 = ladder.y + ladder.height / 2;
  await page.mouse.move(x, y0);
  await page.mouse.down();
  await page.mouse.move(x, y0 + 60, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await yOf()) - before)).toBe(60);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  expect(await cursorText()).toBe(cursorBefore);
  // A click (no move) on another arrow selects its frame.
  const was = await selected.getAttribute('data-frame-id');
  const other = (await page.getByTestId('ladder-svg').locator('.ld-arrow:not(.selected)').first().boundingBox())!;
  await page.mouse.click(other.x + other.width / 2, other.y + other.height / 2);
  await expect(selected).toHaveCount(1);
  await expect(selected).not.toHaveAttribute('data-frame-id', was!);
  await expect(row).toHaveAttribute('aria-selected', 'false');
  await bar.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(inView).toBe(whole);
});

test('what if: dropping a frame makes the sender retransmit it', async ({ page }) => {
  await openPage(page);
  const rows = packetRows(page);
  await expect(rows.filter({ hasText: 'TCP Retransmission' })).toHaveCount(0);
  const data = rows.filter({ hasText: /ECHO\s*Request/ }).first(); // the TCP echo's data, not a ping request
  const no = (await data.getByRole('gridcell').first().textContent())!.trim();
  await data.click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Drop this frame/ }).click();
  // The chip names the frame as the list numbers it.
  await expect(page.getByLabel('What-if rules')).toContainText(`drop No. ${no} `);
  const filter = page.getByRole('combobox', { name: 'Filter' });
  await filter.fill('tcp.analysis.retransmission');
  await filter.press('Enter');
  await expect(rows.first()).toContainText('TCP Retransmission');
  await expect(rows.first()).toContainText('RTO');
  await expect(page.getByTestId('ladder-svg').locator('.ld-arrow.retx').first()).toBeAttached();
  await shot(page, 'what-if-drop');
});

test('a shared URL reproduces the run', async ({ page, context }) => {
  await openPage(page);
  await page.getByRole('button', { name: 'Parameters panel' }).click(); // folded at 1280 px
  const seed = page.getByLabel('Seed');
  await seed.fill('9');
  await seed.press('Enter');
  await expect(page).toHaveURL(/set=seed%3D9/);
  const summary = await waitForRun(page);
  const again = await context.newPage();
  await openPage(again, new URL(page.url()).hash);
  await expect(again.getByTestId('run-summary')).toHaveText(summary);
});

test('a broken URL names what is wrong and still runs', async ({ page }) => {
  await openPage(page, '#s=no-such&rule=drop:x');
  await expect(page.getByRole('alert')).toContainText('there is no scenario called "no-such"');
  await expect(page.getByRole('alert')).toContainText('rule "drop:x"');
  await expect(packetRows(page).first()).toBeVisible();
});

test('export pcapng: tshark reads the file back', async ({ page }) => {
  await openPage(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export pcapng' }).click();
  const file = await (await download).path();
  expect(readFileSync(file).readUInt32LE(0)).toBe(0x0a0d0d0a);
  const count = execFileSync('tshark', ['-r', file, '-T', 'fields', '-e', 'frame.number'], { encoding: 'utf8' }).trim().split('\n').length;
  expect(count).toBe(18);
});

test('projector view: dark theme and presenter type at 1280x720', async ({ page }) => {
  await openPage(page);
  await page.getByLabel('Dark').check();
  await page.getByLabel('Presenter').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'dark-presenter');
});

test("the NFC modules' buffers, one per end, and the PTx's channel sensing are parameters", async ({ page }) => {
  const errors = await openPage(page, '#s=nfc-bridge-1080');
  await page.getByRole('button', { name: 'Parameters panel' }).click(); // folded at 1280 px
  await page.locator('summary').filter({ hasText: 'Link nfc (nfc)' }).click();
  const endB = page.getByLabel('Module buffer (bytes), end b');
  await expect(endB).toHaveValue('2048');
  await expect(page.getByLabel('Module buffer (bytes), end a')).toHaveValue('0');
  await endB.fill('0');
  await endB.press('Enter');
  // the pair is set whole, end a's value kept
  await expect(page).toHaveURL(/set=links\.nfc\.module_buffer%3D%5B0%2C0%5D/);
  await page.locator('summary').filter({ hasText: 'Bridge ptx' }).click();
  await page.getByLabel('Channel sensing').last().check();
  await expect(page).toHaveURL(/bridges\.ptx\.channel_sensing%3Dtrue/);
  await waitForRun(page);
  expect(errors).toEqual([]);
});
