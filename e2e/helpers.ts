// Shared steps of the end-to-end tests: open the page with console errors collected, wait
// for a run, pick a scenario, save a screenshot for review.
import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

export const SHOTS = 'test-results/screenshots';

export async function openPage(page: Page, hash = ''): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`/${hash}`);
  await waitForRun(page);
  return errors;
}

export async function waitForRun(page: Page): Promise<string> {
  const summary = page.getByTestId('run-summary');
  await expect(summary).toBeVisible();
  return (await summary.textContent()) ?? '';
}

export async function chooseScenario(page: Page, title: RegExp): Promise<void> {
  const select = page.getByLabel('Scenario');
  const option = select.locator('option').filter({ hasText: title });
  const value = await option.getAttribute('value');
  await select.selectOption(value!);
  await expect(page.getByTestId('run-summary')).toContainText('frames');
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** The packet list's data rows (the header row excluded). */
export function packetRows(page: Page) {
  return page.getByRole('grid', { name: 'Packets' }).locator('.pl-body [role="row"]');
}
