// The page in front of a room, at 1280x720 with Presenter on: a ladder whose labels never
// overlap, a cursor that leads, the future hidden, text for the back row, panes that can be
// maximised and resized, and one numbering. Every check measures the page as drawn.
import { expect, test, type Page } from '@playwright/test';
import { openPage, packetRows, shot } from './helpers.ts';

const SCENARIOS = ['arduino-slip', 'nfc-bridge-1080', 'ethernet-bulk-lossy'] as const;
/** Smallest text a presenter's drawings may have (issue: the back row of a classroom). */
const PRESENTER_MIN_PX = 16;

const ladderSvg = (page: Page) => page.getByTestId('ladder-svg');
const ladderBar = (page: Page) => page.locator('.tl-title').filter({ hasText: 'Ladder' });

async function openPresenting(page: Page, scenario: string, theme: 'light' | 'dark' = 'light'): Promise<string[]> {
  const errors = await openPage(page, `#s=${scenario}`);
  if (theme === 'dark') await page.getByLabel('Dark').check();
  await page.getByLabel('Presenter').check();
  await expect(page.locator('html')).toHaveAttribute('data-presenter', 'true');
  return errors;
}

/** Waits until the ladder's drawing has stopped changing (zoom transitions last 150 ms). */
async function settled(page: Page): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = await ladderSvg(page).evaluate(
          (el) => el.innerHTML.length + ':' + el.querySelectorAll('text').length + ':' + (el.querySelector('g.ld-axis')?.innerHTML ?? ''),
        );
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [250, 250, 250, 500] },
    )
    .toBe(true);
}

interface TextBox {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every text the ladder shows, as drawn: its box in the page. */
async function ladderTexts(page: Page): Promise<TextBox[]> {
  return ladderSvg(page).evaluate((svg) => {
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')]
      .map((t) => ({ t, r: t.getBoundingClientRect() }))
      .filter(({ t, r }) => (t.textContent ?? '').trim() !== '' && r.width > 0 && r.height > 0)
      .filter(({ r }) => r.right > frame.left && r.left < frame.right && r.bottom > frame.top && r.top < frame.bottom)
      .map(({ t, r }) => ({ text: t.textContent ?? '', x: r.left, y: r.top, w: r.width, h: r.height }));
  });
}

/** Pairs of boxes that overlap by more than a pixel each way. */
function overlaps(boxes: TextBox[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) out.push(`"${a.text}" and "${b.text}" overlap by ${w.toFixed(1)}x${h.toFixed(1)} px`);
    }
  }
  return out;
}

for (const scenario of SCENARIOS) {
  for (const theme of ['light', 'dark'] as const) {
    test(`${scenario}, ${theme}, presenter: no two ladder labels overlap at Fit and zoomed in`, async ({ page }) => {
      const errors = await openPresenting(page, scenario, theme);
      for (const zoom of ['fit', 'zoom1', 'zoom2']) {
        if (zoom !== 'fit') await ladderBar(page).getByRole('button', { name: 'Zoom in' }).click();
        await settled(page);
        const boxes = await ladderTexts(page);
        expect(boxes.length, `${zoom}: the ladder shows some text`).toBeGreaterThan(3);
        expect(overlaps(boxes), `${zoom}`).toEqual([]);
        await shot(page, `classroom-${scenario}-${theme}-${zoom}`);
      }
      expect(errors).toEqual([]);
    });
  }
}

test('the replays of the seeds, presenter: no two ladder labels overlap at Fit', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await openPresenting(page, 'arduino-ping');
  const names = await page
    .getByLabel('Scenario')
    .locator('optgroup[label="Replays of the seeds"] option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) {
    await page.getByLabel('Scenario').selectOption(name);
    await expect(page.getByTestId('run-summary')).toContainText('frames', { timeout: 120_000 });
    await settled(page);
    expect(overlaps(await ladderTexts(page)), name).toEqual([]);
  }
  await shot(page, 'classroom-replay-last');
  expect(errors).toEqual([]);
});

test('presenter mode: every text of the ladder and the graphs is at least 16 px', async ({ page }) => {
  for (const scenario of SCENARIOS) {
    await openPresenting(page, scenario);
    await settled(page);
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=ladder-svg] text, [data-testid=seq-graph] text, [data-testid=state-graph] text')]
        .filter((t) => (t.textContent ?? '').trim() !== '' && t.getBoundingClientRect().height > 0)
        .map((t) => ({ text: t.textContent ?? '', px: parseFloat(getComputedStyle(t).fontSize) })),
    );
    expect(sizes.length).toBeGreaterThan(10);
    expect(
      sizes.filter((s) => s.px < PRESENTER_MIN_PX),
      scenario,
    ).toEqual([]);
  }
});

test('presenter mode: the packet list keeps No., Info and Stack says on screen', async ({ page }) => {
  await openPresenting(page, 'nfc-bridge-1080');
  const grid = page.getByRole('grid', { name: 'Packets' });
  const box = (await grid.boundingBox())!;
  for (const name of ['No.', 'Info', 'Stack says']) {
    const head = (await grid.getByRole('columnheader', { name, exact: true }).boundingBox())!;
    expect(head.x, name).toBeGreaterThanOrEqual(box.x);
    expect(head.x + head.width, name).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  await shot(page, 'classroom-presenter-list');
});

test('the cursor leads: the selected frame stays in the ladder after +, + and five Steps', async ({ page }) => {
  await openPresenting(page, 'nfc-bridge-1080');
  const row = packetRows(page).filter({ hasText: 'TCP Retransmission' }).first();
  await row.click();
  const selected = ladderSvg(page).locator('.ld-arrow.selected');
  await expect(selected).toHaveCount(1);
  // In view: where the frame leaves its sender (the top of its arrow) is inside the drawing;
  // a frame crossing a slow NFC link may run on below the bottom.
  const inside = async (what: string) => {
    const svg = (await ladderSvg(page).boundingBox())!;
    const a = (await page.locator(what).first().boundingBox())!;
    return a.y >= svg.y && a.y <= svg.y + svg.height && a.height > 0;
  };
  const id = await selected.getAttribute('data-frame-id');
  for (let i = 0; i < 2; i++) {
    await ladderBar(page).getByRole('button', { name: 'Zoom in' }).click();
    await settled(page);
    expect(await inside(`[data-testid=ladder-svg] [data-frame-id="${id}"]`), `after zoom ${i + 1}, the frame zoomed on`).toBe(true);
  }
  // Each step moves the cursor to the next event and selects the frame sent then, if any:
  // the ladder follows, so both the cursor and the selection stay in view.
  for (let i = 0; i < 5; i++) {
    await page.getByRole('button', { name: 'Next event' }).click();
    await settled(page);
    // the cursor is drawn in a layer of its own over the ladder (ladder_svg.ts ensureCursorLayers)
    expect(await inside('[data-testid=ladder-cursor] line.ld-cursor'), `step ${i + 1}: the cursor`).toBe(true);
    expect(await inside('[data-testid=ladder-svg] .ld-arrow.selected'), `step ${i + 1}: the selected frame`).toBe(true);
  }
  await shot(page, 'classroom-cursor-leads');
});

test('hide the future: no list row, arrow or graph point after the cursor', async ({ page }) => {
  await openPresenting(page, 'ethernet-bulk-lossy');
  // Half a second into the transfer: the middle of the story.
  await page.getByRole('slider', { name: 'Time' }).fill('500000');
  await page.getByLabel('Hide the future').check();
  await settled(page);
  const cursorUs = Number(await page.getByRole('slider', { name: 'Time' }).inputValue());
  // The list: every row sent by the cursor (its Time is on the run's clock).
  const times = await packetRows(page).evaluateAll((rows) => rows.map((r) => Number(r.querySelectorAll('[role=gridcell]')[1]?.textContent)));
  expect(times.length).toBeGreaterThan(0);
  expect(Math.max(...times) * 1e6).toBeLessThanOrEqual(cursorUs + 1);
  // ... and it follows the cursor: its last row, the newest frame, is on screen.
  const count = Number(/(\d+) packets so far/.exec((await page.locator('.pl-count').first().textContent()) ?? '')?.[1]);
  const last = packetRows(page).filter({ has: page.getByRole('gridcell', { name: String(count), exact: true }) });
  await expect(last).toBeInViewport();
  // The ladder: nothing drawn below the cursor line.
  const ladder = await ladderSvg(page).evaluate((svg) => {
    // the cursor's layer lies over the drawing, beside it in the pane
    const cursor = svg.parentElement!.querySelector('[data-testid=ladder-cursor] line.ld-cursor')!.getBoundingClientRect().top;
    const marks = [...svg.querySelectorAll('.ld-arrows path, .ld-timers rect, .ld-tags text, .ld-groups *')]
      .map((m) => m.getBoundingClientRect())
      .filter((r) => r.height > 0 || r.width > 0);
    return { cursor, marks: marks.length, bottom: Math.max(...marks.map((r) => r.bottom)) };
  });
  expect(ladder.marks).toBeGreaterThan(0);
  expect(ladder.bottom).toBeLessThanOrEqual(ladder.cursor + 1.5);
  // The graphs: nothing in the plots right of the cursor line.
  for (const id of ['seq-graph', 'state-graph']) {
    const g = await page.getByTestId(id).evaluate((svg) => {
      const line = svg.parentElement!.querySelector('svg.tl-cursor line.gr-cursor');
      const cursor = line ? line.getBoundingClientRect().left : NaN;
      const marks = [...svg.querySelectorAll('.gr-plot path, .gr-plot circle, .gr-plot text')]
        .map((m) => m.getBoundingClientRect())
        .filter((r) => r.width > 0 || r.height > 0);
      return { cursor, marks: marks.length, right: Math.max(...marks.map((r) => r.right)) };
    });
    expect(g.cursor, id).not.toBeNaN();
    expect(g.marks, id).toBeGreaterThan(0);
    expect(g.right, id).toBeLessThanOrEqual(g.cursor + 2);
  }
  await shot(page, 'classroom-hide-the-future');
});

test('every pane can be maximised (Escape restores) and the split between panes dragged', async ({ page }) => {
  await openPresenting(page, 'nfc-bridge-1080');
  const main = (await page.locator('main.app-main').boundingBox())!;
  for (const name of ['Packet list', 'Ladder diagram', 'Packet details', 'Graphs']) {
    const pane = page.getByRole('region', { name });
    await pane.getByRole('button', { name: 'Maximise' }).click();
    const box = (await pane.boundingBox())!;
    expect(box.width, name).toBeGreaterThan(main.width * 0.95);
    expect(box.height, name).toBeGreaterThan(main.height * 0.95);
    if (name === 'Ladder diagram') await shot(page, 'classroom-ladder-maximised');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await pane.boundingBox())!.width, name).toBeLessThan(main.width * 0.8);
  }
  const list = page.getByRole('region', { name: 'Packet list' });
  const before = (await list.boundingBox())!.width;
  const gutter = (await page.getByRole('separator', { name: /Width of the packet list/ }).boundingBox())!;
  await page.mouse.move(gutter.x + gutter.width / 2, gutter.y + gutter.height / 2);
  await page.mouse.down();
  await page.mouse.move(gutter.x - 200, gutter.y + gutter.height / 2, { steps: 5 });
  await page.mouse.up();
  expect((await list.boundingBox())!.width).toBeLessThan(before - 150);
});

test("a teacher's parameters: loss per direction, several delays, the description", async ({ page }) => {
  const errors = await openPresenting(page, 'ethernet-bulk-lossy');
  await expect(page.locator('.scenario-description')).toContainText(/\w+/);
  await page.getByRole('button', { name: 'Parameters panel' }).click(); // folded at 1280 px
  await page.locator('summary').filter({ hasText: 'Link eth' }).click();
  const loss = page.getByLabel('Loss, receiver → sender (eth)');
  await loss.fill('0.1');
  await loss.press('Enter');
  await expect(page).toHaveURL(/set=links\.eth\.faults%3D/);
  await expect(page.getByTestId('run-summary')).toBeVisible();
  // "Delay by" offers several amounts: delay one data segment by half a second.
  const row = packetRows(page)
    .filter({ hasText: /Len=1\d{3}/ })
    .first();
  const no = (await row.getByRole('gridcell').first().textContent())!.trim();
  await row.click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: /Delay this frame by/ })).not.toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Delay this frame by 500 ms' }).click();
  await expect(page.getByLabel('What-if rules')).toContainText(`delay No. ${no} by 500 ms`);
  await shot(page, 'classroom-parameters');
  expect(errors).toEqual([]);
});

test('the ladder is copied as a Mermaid sequenceDiagram', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPresenting(page, 'nfc-bridge-1080');
  await ladderBar(page)
    .getByRole('button', { name: /Export/ })
    .click();
  await page.getByRole('menuitem', { name: 'Copy as Mermaid' }).click();
  await expect(ladderBar(page).getByRole('button', { name: 'Copied' })).toBeVisible();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(text.split('\n')[0]).toBe('sequenceDiagram');
  expect(text).toMatch(/participant/);
  expect(text).toMatch(/-x/); // the frames the busy module lost
});

test('what if, side by side: the runs without and with the drop on one time axis, and their differences', async ({ page }) => {
  const errors = await openPresenting(page, 'arduino-slip');
  const data = packetRows(page)
    .filter({ hasText: /ECHO\s*Request/ })
    .first();
  await data.click({ button: 'right' });
  await page.getByRole('menuitem', { name: /side by side/ }).click();
  const ladders = page.getByTestId('compare-ladder');
  await expect(ladders).toHaveCount(2);
  const [a, b] = [(await ladders.nth(0).boundingBox())!, (await ladders.nth(1).boundingBox())!];
  expect(b.x).toBeGreaterThanOrEqual(a.x + a.width); // side by side
  expect(b.y).toBe(a.y); // one time axis: the same top, the same height
  expect(b.height).toBe(a.height);
  const diff = page.getByRole('table', { name: 'Differences' });
  // One dropped data segment: the stack sends it again once more, after its RTO.
  await expect(diff.getByRole('row', { name: /^retransmissions/ })).toContainText(/\+1$/);
  await expect(diff.getByRole('row', { name: /RTO expired/ })).toBeVisible();
  await expect(diff.getByRole('row', { name: /done at/ }).filter({ hasText: /\+\d+\.\d{3} s$/ })).not.toHaveCount(0);
  await shot(page, 'classroom-side-by-side');
  // Off again: one ladder.
  await page.getByLabel('Side by side').uncheck();
  await expect(page.getByTestId('ladder-svg')).toBeVisible();
  expect(errors).toEqual([]);
});
