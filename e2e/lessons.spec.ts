// The lessons in the page, at 1280x720 with Presenter on: every shipped lesson walked step
// by step (caption, the step's instant inside the ladder, nothing after the cursor before
// Reveal, the reveal naming one right choice), and a lesson's URL opening on its step.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openPage, packetRows, shot } from './helpers.ts';

async function lessonNames(page: Page): Promise<string[]> {
  return page
    .getByLabel('Scenario')
    .locator('optgroup[label="Lessons"] option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value.replace(/^lesson:/, '')));
}

async function openLesson(page: Page, name: string, step = 1): Promise<void> {
  await page.goto(`/#lesson=${name}&step=${step}`);
  // the lesson's code and file load when first used: wait for this lesson, not the one before
  await expect(page.getByLabel('Scenario')).toHaveValue(`lesson:${name}`);
  await expect(page.locator('.lesson-count')).toContainText(`Step ${step} of`);
  await expect(page.getByTestId('run-summary')).toBeVisible();
  await expect(page.getByTestId('lesson-caption')).toBeVisible();
}

/** The cursor's instant in µs, as the scrubber holds it. */
async function cursorUs(page: Page): Promise<number> {
  return Number(await page.getByRole('slider', { name: 'Time' }).inputValue());
}

/** Nothing shown after the cursor: the list's rows and the ladder's arrows. */
async function expectNoFuture(page: Page, what: string): Promise<void> {
  const t = await cursorUs(page);
  const times = await packetRows(page).evaluateAll((rows) => rows.map((r) => Number(r.querySelectorAll('[role=gridcell]')[1]?.textContent)));
  for (const s of times) if (!Number.isNaN(s)) expect(s * 1e6, `${what}: a list row after the cursor`).toBeLessThanOrEqual(t + 1);
  // The ladder, or the two of a step shown side by side.
  const ladders = await ladderSvgs(page).evaluateAll((svgs) =>
    svgs.map((svg) => {
      // a side-by-side half draws its own cursor; the ladder pane's is in a layer over it
      const line = svg.querySelector('line.ld-cursor') ?? svg.parentElement?.querySelector('[data-testid=ladder-cursor] line.ld-cursor');
      const cursor = line ? line.getBoundingClientRect().top : Infinity;
      const bottoms = [...svg.querySelectorAll('.ld-arrows path')]
        .map((m) => m.getBoundingClientRect())
        .filter((r) => r.height > 0 || r.width > 0)
        .map((r) => r.bottom);
      return { cursor, bottom: Math.max(-Infinity, ...bottoms) };
    }),
  );
  expect(ladders.length, what).toBeGreaterThan(0);
  for (const l of ladders) expect(l.bottom, `${what}: an arrow below the cursor line`).toBeLessThanOrEqual(l.cursor + 1.5);
}

function ladderSvgs(page: Page) {
  return page.locator('[data-testid=ladder-svg], [data-testid=compare-ladder]');
}

test('every lesson walks: captions, its instant in the ladder, no future before Reveal, one right choice', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = await openPage(page);
  await page.getByLabel('Presenter').check();
  const names = await lessonNames(page);
  expect(names.length).toBeGreaterThanOrEqual(5);
  const questions: string[] = [];
  for (const name of names) {
    await openLesson(page, name);
    const count = Number(/Step 1 of (\d+)/.exec((await page.locator('.lesson-count').textContent()) ?? '')?.[1]);
    expect(count, name).toBeGreaterThan(1);
    for (let k = 1; k <= count; k++) {
      const what = `${name} step ${k}`;
      await expect(page.locator('.lesson-count')).toHaveText(`Step ${k} of ${count}`);
      await expect(page).toHaveURL(new RegExp(`lesson=${name}&step=${k}`));
      expect((await page.getByTestId('lesson-caption').textContent())!.length, what).toBeGreaterThan(20);
      await expect(page.getByLabel('Hide the future')).toBeChecked();
      // The step's instant is in the ladder: the cursor line is drawn inside it.
      await expect(page.locator('[data-testid=ladder-cursor] line.ld-cursor, [data-testid=compare-ladder] line.ld-cursor').first(), what).toBeAttached();
      await expectNoFuture(page, what);
      const question = page.getByRole('group', { name: 'Question' });
      if ((await question.count()) > 0) {
        questions.push(`${name} ${k}: ${await question.locator('.lesson-prompt').textContent()}`);
        await question.getByRole('button').first().click();
        if (k === 1 || questions.length % 3 === 1) await shot(page, `lesson-${name}-step${k}-question`);
        await page.getByRole('button', { name: 'Reveal' }).click();
        const right = question.locator('.lesson-choices button.right');
        await expect(right, what).toHaveCount(1);
        const rightText = (await right.textContent())!.replace(/ ✓$/, '');
        await expect(page.getByTestId('lesson-answer')).toContainText(rightText);
      }
      if (k < count) await page.keyboard.press('PageDown');
    }
    await shot(page, `lesson-${name}-last`);
  }
  expect(questions.length).toBeGreaterThanOrEqual(names.length);
  console.log(questions.join('\n'));
  expect(errors).toEqual([]);
});

test("a lesson's URL opens on its step, with the caption that step has", async ({ page }) => {
  await openPage(page);
  const name = (await lessonNames(page))[0]!;
  await openLesson(page, name);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await expect(page.locator('.lesson-count')).toContainText('Step 3 of');
  const caption = await page.getByTestId('lesson-caption').textContent();
  const t = await cursorUs(page);
  const again = await page.context().newPage();
  await openLesson(again, name, 3);
  await expect(again.locator('.lesson-count')).toContainText('Step 3 of');
  await expect(again.getByTestId('lesson-caption')).toHaveText(caption!);
  expect(await cursorUs(again)).toBe(t);
  // Back (Page Up, what a clicker sends) returns to step 2.
  await again.keyboard.press('PageUp');
  await expect(again.locator('.lesson-count')).toContainText('Step 2 of');
});

test('a lesson file: a broken one gets its field, line and column; a good one opens and its link carries it', async ({ page }) => {
  await openPage(page);
  const shipped = JSON.parse(readFileSync('web/src/core/lessons/shipped/01-retransmission-timer.json', 'utf8')) as {
    steps: { at: { event?: Record<string, unknown> } }[];
  };
  // A typo in a field: the banner names it where it is.
  const broken = JSON.stringify(
    { ...shipped, steps: shipped.steps.map((s, i) => (i === 2 ? { ...s, at: { event: { kind: 'tcp.rto.restart', hots: 'client' } } } : s)) },
    null,
    2,
  );
  await page.getByLabel('Lesson file').setInputFiles({ name: 'my-lesson.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  await expect(page.getByRole('alert')).toContainText(/my-lesson\.json: steps\[2\]\.at\.event\.hots: .*line \d+ column \d+/);
  // The same lesson as written, under another name: it opens on step 1 and a link reproduces it.
  const good = JSON.stringify({ ...shipped, name: 'my-lesson', title: 'My own retransmission lesson' });
  await page.getByLabel('Lesson file').setInputFiles({ name: 'my-lesson.json', mimeType: 'application/json', buffer: Buffer.from(good) });
  await expect(page.locator('.lesson-title')).toHaveText('My own retransmission lesson');
  await expect(page.locator('.lesson-count')).toContainText('Step 1 of');
  await expect(page).toHaveURL(/lessondoc=/);
  const again = await page.context().newPage();
  await again.goto(`/${new URL(page.url()).hash}`);
  await expect(again.locator('.lesson-title')).toHaveText('My own retransmission lesson');
  await expect(again.getByTestId('lesson-caption')).toHaveText((await page.getByTestId('lesson-caption').textContent())!);
});

test('a lesson step side by side: the lesson run and the changed one, with their differences', async ({ page }) => {
  await openPage(page);
  await page.getByLabel('Presenter').check();
  await openLesson(page, 'reno-newreno');
  const count = Number(/of (\d+)/.exec((await page.locator('.lesson-count').textContent()) ?? '')?.[1]);
  await openLesson(page, 'reno-newreno', count); // its last step compares with Reno
  const ladders = page.getByTestId('compare-ladder');
  await expect(ladders).toHaveCount(2);
  await expect(ladders.nth(1)).toHaveAttribute('aria-label', 'Ladder: Reno');
  const diff = page.getByRole('table', { name: 'Differences' });
  await expect(diff.getByRole('columnheader', { name: 'Reno' })).toBeVisible();
  // With the future hidden the table tells only what happened by the cursor; shown, it tells
  // that Reno leaves recovery on the partial ACK and its second hole waits for the timer.
  await expect(diff.getByRole('row', { name: /RTO expired/ })).toHaveCount(0);
  await page.getByLabel('Hide the future').uncheck();
  await expect(diff.getByRole('row', { name: /RTO expired/ })).toBeVisible();
  await shot(page, 'lesson-side-by-side');
  // Such a step shows the ladder pane alone; back one step, the lesson's run alone, the
  // four panes again.
  await expect(page.getByRole('region', { name: 'Packet list' })).toBeHidden();
  await page.keyboard.press('PageUp');
  await expect(page.getByTestId('ladder-svg')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Packet list' })).toBeVisible();
});
