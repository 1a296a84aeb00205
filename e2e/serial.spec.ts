// The live page against the real firmware: a stand-in for navigator.serial whose port is the
// emulated Arduino (avr8js running build/firmware/stackscope-echo.hex in a worker), reached
// through the same Web Serial code a USB-attached board is. Ping, TCP echo, a refused port,
// then the cable is pulled: the capture stays and exports.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { packetRows, shot } from './helpers.ts';

interface Delay {
  mean: number;
  max: number;
  count: number;
}

declare global {
  interface Window {
    /** the emulated port the stand-in handed out (web/src/serial/emulated_port.ts) */
    standInPort?: { unplug(): void; latency: { toBoard: Delay; fromBoard: Delay } };
  }
}

async function openLivePage(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  // Headless Chromium's own requestPort() never settles (no chooser): stand in before the page runs.
  await page.addInitScript(() => {
    const serial = {
      async requestPort() {
        const port = window.stackscope!.emulatedPort();
        window.standInPort = port as unknown as NonNullable<typeof window.standInPort>;
        return port;
      },
      async getPorts() {
        return [];
      },
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => serial });
  });
  await page.goto('/#s=arduino-live');
  return errors;
}

function rttStats(text: string): { min: number; avg: number; max: number } {
  const m = /rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)\/[\d.]+ ms/.exec(text);
  if (!m) throw new Error(`no rtt line in:\n${text}`);
  return { min: Number(m[1]), avg: Number(m[2]), max: Number(m[3]) };
}

test('ping, TCP echo and a refused port on the emulated Arduino through Web Serial', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await openLivePage(page);
  await page.getByRole('button', { name: 'Connect Arduino', exact: true }).click();
  await expect(page.getByTestId('live-status')).toHaveText(/^Connected — Arduino over Web Serial, 57600 baud/, { timeout: 20_000 });

  // 10 pings of 56 bytes, one a second
  await page.getByRole('button', { name: 'Ping', exact: true }).click();
  const pingOut = page.getByLabel('Ping output');
  await expect(pingOut).toContainText('10 packets transmitted, 10 received, 0% packet loss', { timeout: 30_000 });
  const rtt = rttStats((await pingOut.textContent()) ?? '');
  const theory = Number(/([\d.]+) ms/.exec((await page.getByTestId('ping-theory').textContent()) ?? '')![1]);
  expect(theory).toBeCloseTo(29.9, 1);
  // The model's latency, as the emulated port measured it: the browser passing bytes between
  // the page and the board's worker, and the worker's scheduling (the board's line time and
  // work are not in it).
  const lat = await page.evaluate(() => {
    const { toBoard, fromBoard } = window.standInPort!.latency;
    const plain = (d: Delay) => ({ mean: d.mean, max: d.max, count: d.count }); // mean is a getter
    return { toBoard: plain(toBoard), fromBoard: plain(fromBoard) };
  });
  expect(lat.toBoard.count).toBe(10);
  expect(lat.fromBoard.count).toBe(10);
  const model = lat.toBoard.mean + lat.fromBoard.mean;
  const expected = theory + model;
  console.log(
    `ping 10 x 56 B: rtt min/avg/max ${rtt.min}/${rtt.avg}/${rtt.max} ms; theory ${theory} ms + model ${model.toFixed(2)} ms ` +
      `(to the board ${lat.toBoard.mean.toFixed(2)}, max ${lat.toBoard.max.toFixed(1)}; back ${lat.fromBoard.mean.toFixed(2)}, max ${lat.fromBoard.max.toFixed(1)})`,
  );
  // The board's pacing, judged on the fastest of the 10 round trips: a loaded machine can
  // only delay a ping (the board's worker or the page waiting for a core), never speed one
  // up, and one undisturbed ping of 10 is enough to show the board keeps real time. A board
  // run too fast beats the line; one run too slow (or a frame held somewhere) misses the
  // line plus what the emulation measured it adds. The average is printed above, not judged.
  expect(rtt.min, 'nothing beats the line').toBeGreaterThanOrEqual(0.9 * theory);
  expect(rtt.min, `min ${rtt.min} ms against ${expected.toFixed(2)} ms`).toBeLessThanOrEqual(1.1 * expected);

  // TCP echo on port 7
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const console_ = page.getByLabel('Console output');
  await expect(console_).toContainText('Connected to 10.0.7.2:7');
  await page.getByLabel('Text to send').fill('hello from stackscope');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(console_).toContainText(/Connected to 10\.0\.7\.2:7[\s\S]*\nhello from stackscope/);
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(console_).toContainText('Connection closed');

  // port 8: the firmware answers RST
  await page.getByRole('button', { name: 'Probe', exact: true }).click();
  await expect(page.getByLabel('Probe output')).toContainText('Connection refused');

  const rows = packetRows(page);
  // Counted by the display filter: the list draws only the rows in view.
  const filter = page.getByRole('combobox', { name: 'Filter' });
  await filter.fill('icmp.type == 0');
  await filter.press('Enter');
  await expect(page.locator('.pl-count').first()).toContainText(/^Displayed: 10 of \d+/);
  await expect(rows.first()).toContainText('Echo (ping) reply');
  await filter.fill('tcp.flags.reset == 1');
  await filter.press('Enter');
  await expect(rows.first()).toContainText('8 → ');
  await expect(rows.first()).toContainText('[RST, ACK]');
  await filter.fill('');
  await filter.press('Enter');
  await expect(page.getByTestId('bad-frames')).toHaveText('0');
  await shot(page, 'arduino-live');

  // the cable is pulled: a clear message, the frames stay, the capture exports
  const before = await page.getByTestId('run-summary').textContent();
  await page.evaluate(() => window.standInPort!.unplug());
  await expect(page.getByRole('alert')).toContainText('the Arduino was disconnected');
  await expect(page.getByTestId('live-status')).toContainText('Disconnected');
  await expect(page.getByTestId('run-summary')).toHaveText(before!);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export pcapng' }).click();
  const file = await (await download).path();
  expect(readFileSync(file).readUInt32LE(0)).toBe(0x0a0d0d0a);
  const info = execFileSync('tshark', ['-r', file, '-T', 'fields', '-e', '_ws.col.Info'], { encoding: 'utf8' });
  expect(info.match(/Echo \(ping\) reply/g)).toHaveLength(10);
  await shot(page, 'arduino-unplugged');
  expect(errors).toEqual([]);
});

test('without Web Serial, at a wrong baud rate: the page says why, and keeps the frames', async ({ page }) => {
  // as in Firefox and Safari: no navigator.serial
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => undefined }));
  await page.goto('/#s=arduino-live');
  await expect(page.getByRole('note')).toContainText('This browser has no Web Serial');
  await expect(page.getByRole('button', { name: 'Connect Arduino', exact: true })).toBeDisabled();

  await page.getByLabel('Baud rate').selectOption('9600');
  await page.getByRole('button', { name: 'Connect emulated Arduino' }).click();
  await expect(page.getByTestId('live-status')).toHaveText(/^Connected — Emulated Arduino \(avr8js\), 9600 baud/);
  await page.getByRole('spinbutton', { name: 'Count', exact: true }).fill('3');
  await page.getByRole('spinbutton', { name: 'Interval (ms)' }).fill('200');
  await page.getByRole('button', { name: 'Ping', exact: true }).click();
  await expect(page.getByLabel('Ping output')).toContainText('3 packets transmitted, 0 received, 100% packet loss', { timeout: 20_000 });
  await expect(page.getByTestId('line-problem')).toContainText('9600 baud');

  await page.getByRole('button', { name: 'Unplug' }).click();
  await expect(page.getByRole('alert').first()).toContainText('the Arduino was disconnected');
  await expect(page.getByTestId('run-summary')).toContainText('3 frames');
  await expect(packetRows(page)).toHaveCount(3);
  await shot(page, 'arduino-wrong-baud');
});
