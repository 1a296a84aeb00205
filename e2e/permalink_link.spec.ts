// A permalink's capture point (link=N): the page opens on that link once the run has the
// scenario's links, names a link the scenario lacks, and the URL follows the user's choice.
import { expect, test, type Page } from '@playwright/test';
import { openPage, packetRows } from './helpers.ts';

/** The capture point's value, its option's text and the first row of the list. */
async function inView(page: Page): Promise<{ value: string; label: string; firstRow: string }> {
  const picker = page.getByLabel('Capture point');
  const value = await picker.inputValue();
  const label = (await picker.locator(`option[value="${value}"]`).textContent()) ?? '';
  return { value, label, firstRow: (await packetRows(page).first().textContent()) ?? '' };
}

test('link=0 opens nfc-bridge-1080 on its NFC link (the default is the Ethernet, link 1), and the URL follows the picker', async ({ page }) => {
  const errors = await openPage(page, '#s=nfc-bridge-1080');
  const byDefault = await inView(page);
  expect(byDefault.value).toBe('1');
  expect(byDefault.label).toMatch(/^eth/);
  await page.getByLabel('Capture point').selectOption('0');
  const picked = await inView(page);
  expect(picked.label).toMatch(/^nfc/);
  expect(picked.firstRow).not.toBe(byDefault.firstRow); // the NFC link's rows are raw IPv4, shorter
  await expect.poll(() => page.evaluate(() => location.hash)).toBe('#s=nfc-bridge-1080&link=0');

  await page.goto('about:blank');
  await openPage(page, '#s=nfc-bridge-1080&link=0');
  await expect(packetRows(page).first()).toHaveText(picked.firstRow);
  expect(await inView(page)).toEqual(picked);
  expect(await page.evaluate(() => location.hash)).toBe('#s=nfc-bridge-1080&link=0');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // the user's choice afterwards: back to the default, which the URL leaves out
  await page.getByLabel('Capture point').selectOption('1');
  await expect.poll(() => page.evaluate(() => location.hash)).toBe('#s=nfc-bridge-1080');
  expect(errors).toEqual([]);
});

test('a link the scenario lacks is named, and the default is shown', async ({ page }) => {
  await openPage(page, '#s=nfc-bridge-1080&link=5');
  await expect(page.getByText('URL: link 5 is not a link of the scenario (it has 2: 0 to 1); showing link 1')).toBeVisible();
  expect((await inView(page)).value).toBe('1');
});
