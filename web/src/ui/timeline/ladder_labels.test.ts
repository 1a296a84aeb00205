import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import { headerTexts, tickMarks } from './ladder_frame_text.ts';
import { cursorLabel } from './ladder_labels.ts';
import { buildLadderModel } from './ladder_model.ts';
import { buildScene, fitRange, headerHeight, laneXs } from './ladder_scene.ts';
import { intersects, type TextBox } from './ladder_text.ts';
import type { Lifeline } from '../../core/run/lifelines.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';
import { NORMAL_TEXT, PRESENTER_TEXT } from './text_size.ts';

function clashes(boxes: readonly TextBox[]): number {
  let n = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (intersects(boxes[i]!, boxes[j]!)) n++;
  return n;
}

const NFC_LANES: Lifeline[] = [
  { key: 'node:0', kind: 'host', label: 'appliance', detail: '192.168.1.102' },
  { key: 'module:0:a', kind: 'module', label: 'NFC module', detail: 'of appliance' },
  { key: 'module:0:b', kind: 'module', label: 'NFC module', detail: 'of ptx' },
  { key: 'node:2', kind: 'bridge', label: 'ptx', detail: 'bridge' },
  { key: 'node:1', kind: 'host', label: 'user', detail: '192.168.1.202' },
];

describe('ladder header', () => {
  it('names and details that do not fit their column are cut, so neighbours never touch', () => {
    const narrow = headerTexts(NFC_LANES, laneXs(5, 570, 85), PRESENTER_TEXT, 570);
    expect(narrow.map((t) => t.text)).toContain('applian…');
    expect(clashes(narrow)).toBe(0);
    expect(narrow.filter((t) => t.kind === 'name').every((t) => t.px === PRESENTER_TEXT.namePx)).toBe(true);
    expect(narrow.every((t) => t.y + t.h <= headerHeight(PRESENTER_TEXT))).toBe(true);
    const wide = headerTexts(NFC_LANES, laneXs(5, 1270, 85), PRESENTER_TEXT, 1270);
    expect(wide.map((t) => t.text)).toEqual(NFC_LANES.flatMap((l) => [l.label, l.detail]));
  });
});

describe('ladder time axis', () => {
  it('fewer ticks for larger text; labels never touch; none over the header', () => {
    const y = d3.scaleLinear().domain([0, 8e6]).range([60, 250]);
    const normal = tickMarks(0, 8e6, y, NORMAL_TEXT, 40, 250, 70);
    const presenter = tickMarks(0, 8e6, y, PRESENTER_TEXT, 50, 250, 85);
    expect(normal.length).toBeGreaterThan(presenter.length);
    expect(presenter.length).toBeGreaterThanOrEqual(2);
    for (const ticks of [normal, presenter]) {
      expect(clashes(ticks.map((t) => t.label))).toBe(0);
      expect(ticks.every((t) => t.label.x >= 0 && t.label.y >= 40)).toBe(true);
    }
    // in order, each printed once
    expect(presenter.map((t) => t.y)).toEqual([...presenter.map((t) => t.y)].sort((a, b) => a - b));
    expect(new Set(presenter.map((t) => t.label.text)).size).toBe(presenter.length);
  });
});

describe('the cursor label', () => {
  it('goes where it covers no text, or nowhere', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const y = d3
      .scaleLinear()
      .domain([0, m.lastUs * 1.02])
      .range(fitRange(NORMAL_TEXT, 280));
    const scene = buildScene(m, { width: 570, height: 280, y, selected: null, text: NORMAL_TEXT, horizonUs: null });
    let placed = 0;
    for (let cy = scene.headerH; cy < 280; cy += 3) {
      const c = cursorLabel(scene, cy);
      if (!c) continue;
      placed++;
      expect(c.text).toBe('cursor');
      expect(c.px).toBe(NORMAL_TEXT.px);
      expect(scene.texts.some((t) => intersects(t, c))).toBe(false);
    }
    expect(placed).toBeGreaterThan(10);
    // Every spot covered: no label.
    const full = { ...scene, texts: [{ kind: 'label' as const, text: '', px: 11, x: 0, y: 0, w: 570, h: 280, tx: 0, ty: 0 }] };
    expect(cursorLabel(full, 150)).toBeNull();
  });
});

describe('the story first', () => {
  it('ethernet-bulk-lossy at Fit in the classroom pane: every cause and the loss are told', async () => {
    const m = buildLadderModel(await shippedRun('ethernet-bulk-lossy'));
    const y = d3
      .scaleLinear()
      .domain([0, m.lastUs * 1.02])
      .range(fitRange(PRESENTER_TEXT, 250));
    const scene = buildScene(m, { width: 570, height: 250, y, selected: null, text: PRESENTER_TEXT, horizonUs: null });
    const causes = new Set(m.frames.map((_, i) => m.retx(i)).filter((c) => c !== null));
    expect(causes.size).toBeGreaterThan(1);
    const texts = scene.texts.map((t) => t.text);
    // Twelve drops for the same reason do not crowd out the rarer causes.
    for (const c of causes)
      expect(
        texts.some((t) => t.startsWith(`[${c}]`)),
        c!,
      ).toBe(true);
    expect(texts.some((t) => /random loss/.test(t))).toBe(true);
    // Drops alike close together share one reason, which says how many it tells.
    expect(texts.some((t) => /random loss ×\d/.test(t))).toBe(true);
  });
});
