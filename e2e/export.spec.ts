// The page's capture exports in Chromium, read back by tshark: "Export pcapng" writes the
// capture point in view, and tshark's Info column (the analysis flags in brackets with it)
// is the packet list's, row for row; "Export all links" is the second, labelled choice.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { openPage, packetRows, shot } from './helpers.ts';

function tshark(file: string, field: string): string[] {
  return execFileSync('tshark', ['-r', file, '-o', 'tcp.analyze_sequence_numbers:TRUE', '-2', '-T', 'fields', '-e', field], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** The packet list's Info column, every row (the pane maximised so that none is virtualized away). */
async function pageInfo(page: Page): Promise<string[]> {
  const list = page.getByRole('region', { name: 'Packet list' });
  await list.getByRole('button', { name: 'Maximise' }).click();
  const total = Number(await page.getByRole('grid', { name: 'Packets' }).getAttribute('aria-rowcount')) - 1;
  await expect(packetRows(page)).toHaveCount(total);
  const info = await page.getByRole('grid', { name: 'Packets' }).evaluate((grid) => {
    const heads = [...grid.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim());
    const col = heads.indexOf('Info');
    return [...grid.querySelectorAll('.pl-body [role="row"]')]
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
      .map((row) => row.querySelectorAll('[role="gridcell"]')[col]?.getAttribute('title') ?? '');
  });
  await page.keyboard.press('Escape');
  return info;
}

async function download(page: Page, button: string): Promise<{ file: string; name: string }> {
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const d = await saved;
  return { file: await d.path(), name: d.suggestedFilename() };
}

test('Export pcapng writes the capture point in view: tshark shows the Info and flags of the packet list, row for row', async ({ page }) => {
  const errors = await openPage(page, '#s=nfc-bridge-1080');
  const picker = page.getByLabel('Capture point');
  // the scenario's capture list names eth first: the page opens there, as `stackscope run --table` does
  await expect(picker.locator('option:checked')).toHaveText(/^eth \(Ethernet/);
  const eth = await download(page, 'Export pcapng');
  expect(eth.name).toBe('nfc-bridge-1080-eth.pcapng');
  const ethRows = await pageInfo(page);
  expect(ethRows.some((i) => i.startsWith('[TCP Retransmission]'))).toBe(true);
  expect(tshark(eth.file, '_ws.col.Info')).toEqual(ethRows);
  expect(new Set(tshark(eth.file, 'frame.interface_name'))).toEqual(new Set(['eth']));

  const options = await picker.locator('option').allTextContents();
  await picker.selectOption({ index: options.findIndex((o) => o.startsWith('nfc')) });
  const nfc = await download(page, 'Export pcapng');
  expect(nfc.name).toBe('nfc-bridge-1080-nfc.pcapng');
  const nfcRows = await pageInfo(page);
  expect(tshark(nfc.file, '_ws.col.Info')).toEqual(nfcRows);
  await shot(page, 'export-capture-point');
  expect(errors).toEqual([]);
});

test('Export all links: every captured link in one file, and the button says what Wireshark makes of the copies', async ({ page, context }) => {
  const errors = await openPage(page, '#s=nfc-bridge-1080');
  const all = page.getByRole('button', { name: 'Export all links (pcapng)', exact: true });
  await expect(all).toHaveAttribute('title', /not by interface.*as a retransmission of the first/);
  const file = await download(page, 'Export all links (pcapng)');
  expect(file.name).toBe('nfc-bridge-1080-all-links.pcapng');
  // every frame of both links: as many on each as the packet list shows for that link
  const interfaces = tshark(file.file, 'frame.interface_name');
  const picker = page.getByLabel('Capture point');
  const options = await picker.locator('option').allTextContents();
  for (const link of ['eth', 'nfc']) {
    await picker.selectOption({ index: options.findIndex((o) => o.startsWith(link)) });
    const rows = Number(await page.getByRole('grid', { name: 'Packets' }).getAttribute('aria-rowcount')) - 1;
    expect(rows).toBeGreaterThan(0);
    expect(interfaces.filter((i) => i === link).length).toBe(rows);
  }
  expect(interfaces.length).toBe(interfaces.filter((i) => i === 'eth' || i === 'nfc').length);
  // what the note warns of: the SYN the bridge forwarded reads as a retransmission of itself
  expect(tshark(file.file, '_ws.col.Info').filter((i) => i.startsWith('[TCP Retransmission]') && i.includes('[SYN]')).length).toBeGreaterThan(0);

  // one captured link: nothing more than Export pcapng, so the choice is off and says why
  const serial = await context.newPage();
  const serialErrors = await openPage(serial, '#s=arduino-slip');
  const one = serial.getByRole('button', { name: 'Export all links (pcapng)', exact: true });
  await expect(one).toBeDisabled();
  await expect(one).toHaveAttribute('title', /Only one link is captured/);
  expect([...errors, ...serialErrors]).toEqual([]);
});
