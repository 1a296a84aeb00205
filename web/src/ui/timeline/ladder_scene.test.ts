import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import { cursorLabel } from './ladder_labels.ts';
import { buildLadderModel, type LadderModel } from './ladder_model.ts';
import {
  axisWidth,
  buildScene,
  clipPath,
  fitRange,
  headerHeight,
  hitTest,
  laneAt,
  laneXs,
  mergeTimerMarks,
  type ArrowMark,
  type Scene,
  type TimerMark,
} from './ladder_scene.ts';
import { boxHeight, intersects } from './ladder_text.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';
import { NORMAL_TEXT, PRESENTER_TEXT, type DrawingText } from './text_size.ts';
import { AxisTransform } from './axis_transform.ts';

/** The ladder pane's scale at Fit (as LadderPane.tsx makes it), zoomed `k` times around `atUs`. */
function view(m: LadderModel, text: DrawingText, height: number, k = 1, atUs = 0): d3.ScaleLinear<number, number> {
  const base = d3
    .scaleLinear()
    .domain([0, m.lastUs * 1.02])
    .range(fitRange(text, height));
  const s = base(atUs);
  return new AxisTransform(k, s - k * s).rescale(base);
}

function overlapping(scene: Scene): string[] {
  const t = scene.texts;
  const out: string[] = [];
  for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) if (intersects(t[i]!, t[j]!)) out.push(`"${t[i]!.text}" / "${t[j]!.text}"`);
  return out;
}

describe('ladder scene', () => {
  it('columns spread right of the time axis; fractional columns in between', () => {
    const xs = laneXs(3, 1000, 64);
    expect(xs[0]).toBeGreaterThan(64);
    expect(xs[2]).toBeLessThan(1000);
    expect(laneAt(xs, 0.5)).toBe((xs[0]! + xs[1]!) / 2);
    expect(laneXs(1, 1000, 64)).toHaveLength(1);
    // Five columns in a narrow pane: half a column outside the first and the last.
    const narrow = laneXs(5, 500, 100);
    expect(narrow[0]! - 100).toBeCloseTo((narrow[1]! - narrow[0]!) / 2, 0);
  });

  it('the header and the axis grow with the text', () => {
    expect(headerHeight(PRESENTER_TEXT)).toBeGreaterThan(headerHeight(NORMAL_TEXT));
    expect(axisWidth(PRESENTER_TEXT)).toBeGreaterThan(axisWidth(NORMAL_TEXT));
    expect(headerHeight(NORMAL_TEXT)).toBeGreaterThanOrEqual(NORMAL_TEXT.namePx + NORMAL_TEXT.px);
  });

  it('nfc-bridge-1080: the first second, labelled, with the drop and the RTO bar', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const y = d3
      .scaleLinear()
      .domain([0, 1_000_000])
      .range([headerHeight(NORMAL_TEXT), 800]);
    const scene = buildScene(m, { width: 1200, height: 800, y, selected: 7, text: NORMAL_TEXT, horizonUs: null });
    expect(scene.canvas).toBe(false);
    expect(scene.arrows.map((a) => a.id)).toEqual(m.frameIndex.query(scene.t0, scene.t1).map((i) => m.frames[i]!.id));
    const drop = scene.arrows.find((a) => a.drop)!;
    expect(drop.id).toBe(7); // (frames 1 and 2 are the PTx's ARP request and its reply)
    expect(drop.selected).toBe(true);
    // The busy module discarded it: the cross sits on the appliance's module column.
    expect(drop.cross).toEqual({ x: scene.laneX[1], y: y(m.frames[7]!.tEnd) });
    expect(drop.reason?.text).toMatch(/^nfc: module busy/);
    expect(drop.label?.text).toBe('[PSH, ACK] Seq=1 Ack=1 Len=1024');
    // The appliance's first RTO bar: armed with 1 s, expires on the tick at 1 s.
    const rto = scene.timers.find((t) => t.bar.kind === 'rto' && t.bar.host === 0 && t.bar.end === 'expire')!;
    expect(rto.label?.text).toBe('RTO 1.0 s');
    expect(rto.x).toBeGreaterThan(scene.laneX[0]!);
    // Pointing at the middle of the SYN's air hop finds the SYN.
    const syn = scene.arrows[0]!;
    const air = syn.segments.find((s) => s.kind === 'air')!;
    expect(hitTest(scene, (air.x1 + air.x2) / 2, (air.y1 + air.y2) / 2)?.id).toBe(syn.id);
    expect(hitTest(scene, 5, 5)).toBeNull();
  });

  it('retransmissions carry their cause first; too many arrows go to the canvas, labels stay', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const y = d3
      .scaleLinear()
      .domain([0, m.lastUs])
      .range([headerHeight(NORMAL_TEXT), 2000]);
    const wide = buildScene(m, { width: 1600, height: 2000, y, selected: null, text: NORMAL_TEXT, horizonUs: null });
    const retx = wide.arrows.find((a) => a.retx)!;
    expect(retx.label?.text).toBe('[RTO expired] [PSH, ACK] Seq=1 Ack=1 Len=1024');
    const crowded = buildScene(m, { width: 1600, height: 2000, y, selected: null, text: NORMAL_TEXT, horizonUs: null, canvasLimit: 10 });
    expect(crowded.canvas).toBe(true);
    expect(crowded.texts.map((t) => t.text)).toEqual(wide.texts.map((t) => t.text));
  });
});

describe('a view with more frames than pixel rows', () => {
  it('draws one arrow per hop, kind and pixel row, standing for every frame in view', async () => {
    const m = buildLadderModel(await shippedRun('ethernet-bulk-lossy'));
    // 1104 frames over 250 px
    const y = view(m, NORMAL_TEXT, 300);
    const selected = m.frames[Math.floor(m.frames.length / 2)]!.id;
    const o = { width: 1200, height: 300, y, selected, text: NORMAL_TEXT, horizonUs: null };
    const thin = buildScene(m, { ...o, thinLimit: 500 });
    const visible = m.frameIndex.query(thin.t0, thin.t1);
    expect(visible.length).toBeGreaterThan(1000);
    expect(thin.framesInView).toBe(visible.length);
    expect(thin.arrows.length).toBeLessThan(visible.length / 2);
    expect(thin.arrows.reduce((n, a) => n + a.stands, 0)).toBe(visible.length);
    // no pixel row of a hop holds two arrows of one kind (the selected one aside)
    const kind = (a: ArrowMark) => (a.drop ? 'drop' : a.retx ? 'retx' : 'plain');
    const bins = thin.arrows.filter((a) => !a.selected).map((a) => `${m.frames[a.i]!.link}:${m.frames[a.i]!.dir}:${kind(a)}:${Math.floor(y(a.t0))}`);
    expect(new Set(bins).size).toBe(bins.length);
    // every retransmission and drop is still counted, and the selected frame is drawn itself
    const retx = visible.filter((i) => m.retx(i) && m.paths[i]!.end !== 'drop').length;
    expect(thin.arrows.filter((a) => a.retx && !a.drop).reduce((n, a) => n + a.stands, 0)).toBe(retx);
    expect(thin.arrows.filter((a) => a.drop).reduce((n, a) => n + a.stands, 0)).toBe(visible.filter((i) => m.paths[i]!.end === 'drop').length);
    expect(thin.arrows.find((a) => a.selected)?.id).toBe(selected);
    // the folded bursts count the frames, not the arrows
    expect(thin.groups.some((g) => g.count > g.ids.length)).toBe(true);
    expect(thin.groups.reduce((n, g) => n + g.count, 0)).toBeLessThanOrEqual(visible.length);
    // below the limit every frame is its own arrow, as before
    const full = buildScene(m, { ...o, thinLimit: Infinity });
    expect(full.arrows.map((a) => a.i)).toEqual(visible);
    expect(full.arrows.every((a) => a.stands === 1)).toBe(true);
  });
});

describe('timer bars zoomed out', () => {
  it('merges runs too short to see, keeps readable ones apart', () => {
    const bar = (y0: number, y1: number, end: 'rearm' | 'stop' | 'expire', host = 0): TimerMark => ({
      bar: { kind: 'rto' as const, host, conn: 0, lport: 1, rport: 2, slot: 0, t0: y0, t1: y1, valueUs: 1, end, armSeq: y0 },
      x: 0,
      y0,
      y1,
      width: 5,
      runs: 1,
      length: y1 - y0,
      running: false,
      label: null,
    });
    const merged = mergeTimerMarks([
      bar(0, 1, 'rearm'),
      bar(1, 2, 'rearm'),
      bar(2.5, 3, 'stop'),
      bar(10, 50, 'rearm'),
      bar(50, 90, 'expire'),
      bar(0, 1, 'stop', 1),
    ]);
    expect(merged.map((m) => [m.bar.host, m.y0, m.y1, m.runs, m.bar.end])).toEqual([
      [0, 0, 3, 3, 'stop'],
      [0, 10, 50, 1, 'rearm'],
      [0, 50, 90, 1, 'expire'],
      [1, 0, 1, 1, 'stop'],
    ]);
  });
});

const SCENARIOS = ['arduino-slip', 'nfc-bridge-1080', 'ethernet-bulk-lossy'] as const;
/** The page's ladder pane at 1280x720, the pane maximised, and a tall one. */
const PANES: [number, number][] = [
  [570, 250],
  [1270, 600],
  [570, 1000],
];
const TEXTS: [string, DrawingText][] = [
  ['normal', NORMAL_TEXT],
  ['presenter', PRESENTER_TEXT],
];

/** Fit, and x4 and x16 around the first retransmission (else the first drop, else the
 *  middle of the run). */
function views(m: LadderModel, text: DrawingText, height: number): [string, d3.ScaleLinear<number, number>][] {
  const i = m.frames.findIndex((_, k) => m.retx(k) || m.drop(k));
  const at = i >= 0 ? m.paths[i]!.t0 : m.lastUs / 2;
  return [
    ['fit', view(m, text, height)],
    ['x4', view(m, text, height, 4, at)],
    ['x16', view(m, text, height, 16, at)],
  ];
}

describe('no two ladder texts overlap, at every zoom, pane size and text size', () => {
  for (const name of SCENARIOS) {
    it(name, async () => {
      const m = buildLadderModel(await shippedRun(name));
      let seen = 0;
      for (const [width, height] of PANES) {
        for (const [tn, text] of TEXTS) {
          for (const [zoom, y] of views(m, text, height)) {
            const where = `${width}x${height} ${tn} ${zoom}`;
            const scene = buildScene(m, { width, height, y, selected: null, text, horizonUs: null });
            expect(overlapping(scene), where).toEqual([]);
            for (const t of scene.texts) {
              expect(t.px, `${where} "${t.text}"`).toBeGreaterThanOrEqual(text.px);
              expect(t.x >= 0 && t.y >= 0 && t.x + t.w <= width && t.y + t.h <= height, `${where} "${t.text}" inside`).toBe(true);
            }
            // The cursor's label, wherever the cursor is, covers no other text.
            for (let cy = scene.headerH; cy <= height; cy += 7) {
              const c = cursorLabel(scene, cy);
              if (c)
                expect(
                  scene.texts.filter((t) => intersects(t, c)),
                  `${where} cursor at ${cy}`,
                ).toEqual([]);
            }
            seen += scene.texts.length;
          }
        }
      }
      expect(seen).toBeGreaterThan(100);
    });
  }
});

describe('at Fit the story is readable', () => {
  // The story at Fit: every drop shows its cross and its reason; every retransmission says
  // why: its own label gives the cause, or its group's label says it holds retransmissions.
  // A bridge's copy is the same segment on the next link: told when the frame it copies is.
  // Where twenty texts compete for eight rows (the classroom's pane in presenter mode), a
  // retransmission may go without a label of its own when one with the same cause is told
  // within two rows of it: the reader reads that label; everywhere else each one has its own.
  it('nfc-bridge-1080: every drop has its cross and its reason, every retransmission says why', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const failures: string[] = [];
    for (const [width, height] of PANES) {
      for (const [tn, text] of TEXTS) {
        const where = `${width}x${height} ${tn}`;
        const scene = buildScene(m, { width, height, y: view(m, text, height), selected: null, text, horizonUs: null });
        const arrow = new Map(scene.arrows.map((a) => [a.id, a]));
        const group = (id: number) => scene.groups.find((g) => g.ids.includes(id))?.label?.text ?? '';
        const drops = scene.arrows.filter((a) => a.drop);
        expect(drops.length, where).toBe(m.frames.filter((_, i) => m.drop(i)).length);
        for (const a of drops) {
          expect(a.cross, `${where} ${a.id}`).toBeDefined();
          if (!a.reason && !/lost/.test(group(a.id))) failures.push(`${where}: drop ${a.id} without its reason`);
        }
        const own = (id: number): boolean => {
          const a = arrow.get(id)!;
          if (a.label?.text.startsWith(`[${a.retx}]`) || /resent/.test(group(id))) return true;
          const parent = m.frames[a.i]!.parent;
          return a.forwarded && arrow.has(parent) && own(parent);
        };
        const classroom = width === 570 && height === 250 && text === PRESENTER_TEXT;
        const row = boxHeight(text.px);
        const nearby = (a: ArrowMark) =>
          scene.arrows.some(
            (b) =>
              b.retx === a.retx &&
              b.label?.text.startsWith(`[${b.retx}]`) &&
              Math.abs(b.label.y + row / 2 - (a.segments[a.main]!.y1 + a.segments[a.main]!.y2) / 2) <= 2 * row,
          );
        for (const a of scene.arrows.filter((x) => x.retx)) {
          if (!own(a.id) && !(classroom && nearby(a))) failures.push(`${where}: retransmission ${a.id} does not say why`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('ethernet-bulk-lossy: the bursts fold into groups that say what they hold', async () => {
    const m = buildLadderModel(await shippedRun('ethernet-bulk-lossy'));
    const scene = buildScene(m, { width: 570, height: 250, y: view(m, PRESENTER_TEXT, 250), selected: null, text: PRESENTER_TEXT, horizonUs: null });
    expect(scene.groups.length).toBeGreaterThan(0);
    const folded = new Set(scene.groups.flatMap((g) => g.ids));
    // Every frame is labelled, in a group, or alone without room.
    expect(scene.arrows.filter((a) => !a.label && !folded.has(a.id)).length).toBeLessThan(scene.arrows.length / 10);
    const labelled = scene.groups.filter((g) => g.label);
    expect(labelled.length).toBeGreaterThan(0);
    for (const g of labelled) {
      expect(g.label!.text.startsWith(`×${g.count}`)).toBe(true);
      expect(g.count).toBe(g.ids.length);
      expect(g.t0).toBeLessThan(g.t1);
    }
    // The big ones hold the losses and say so.
    expect(labelled.some((g) => /resent/.test(g.label!.text) && /lost/.test(g.label!.text))).toBe(true);
  });

  it('arduino-slip: the handshake and the echo at 3.5 s are folded, the pings labelled', async () => {
    const m = buildLadderModel(await shippedRun('arduino-slip'));
    const scene = buildScene(m, { width: 570, height: 250, y: view(m, PRESENTER_TEXT, 250), selected: null, text: PRESENTER_TEXT, horizonUs: null });
    const group = scene.groups.find((g) => g.ids.includes(6))!;
    expect(group.ids).toEqual(expect.arrayContaining([6, 8, 9]));
    expect(group.label?.text).toMatch(/^×\d+ \[SYN\]…/);
    expect(scene.arrows.find((a) => a.id === 0)?.label?.text).toBe('Echo request seq=1');
  });
});

describe('hide the future', () => {
  it('clips a path at the horizon: the hop under way cut, no end', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const p = m.paths[9]!; // the first retransmission: UART, held in the module, then the air
    const air = p.hops.find((h) => h.kind === 'air')!;
    const h = (air.t0 + air.t1) / 2;
    const c = clipPath(p, h);
    expect(c.end).toBe('open');
    expect(c.hops[c.hops.length - 1]!.t1).toBe(h);
    expect(c.hops[c.hops.length - 1]!.to).toBeCloseTo((air.from + air.to) / 2, 5);
    expect(c.hops.every((x) => x.t1 <= h)).toBe(true);
    expect(clipPath(p, p.t1 + 1)).toBe(p);
  });

  // At Fit in the larger panes, and zoomed in four times around the horizon in every pane
  // (at Fit in the classroom's pane the horizon at 1.5 s leaves two rows above it).
  it('nfc-bridge-1080 at 1.5 s: nothing after it, the frame on the air cut, the RTO says its time left', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const h = 1_500_000;
    for (const [width, height] of PANES) {
      for (const [tn, text] of TEXTS)
        for (const k of height > 250 ? [1, 4] : [4]) {
          const where = `${width}x${height} ${tn} x${k}`;
          const y = view(m, text, height, k, h);
          const scene = buildScene(m, { width, height, y, selected: null, text, horizonUs: h });
          const yh = y(h);
          expect(scene.horizonY).toBe(yh);
          expect(
            scene.arrows.every((a) => a.t0 <= h),
            where,
          ).toBe(true);
          expect(
            scene.arrows.flatMap((a) => a.segments).every((s) => Math.max(s.y1, s.y2) <= yh + 1e-6),
            where,
          ).toBe(true);
          expect(
            scene.timers.every((t) => t.y1 <= yh + 1e-6),
            where,
          ).toBe(true);
          expect(
            scene.texts.filter((t) => t.y >= scene.headerH && t.kind !== 'tick').every((t) => t.y + t.h <= yh),
            where,
          ).toBe(true);
          expect(
            scene.groups.every((g) => g.y1 <= yh),
            where,
          ).toBe(true);
          // The retransmission sent at 1.0 s is on its way: no head, no cross; its label stays
          // (where there is room: the time left comes first).
          const retx = scene.arrows.find((a) => a.id === 9)!;
          expect(retx.end).toBe('open');
          expect(retx.head).toBeUndefined();
          if (height > 250) expect(retx.label?.text.startsWith('[RTO expired]'), where).toBe(true);
          // The RTO armed at 1.0 s with 2.0 s runs past the horizon: drawn to it, 1.5 s left.
          const rto = scene.timers.find((t) => t.bar.kind === 'rto' && t.bar.host === 0 && t.bar.t0 === 1_000_000)!;
          expect(rto.running).toBe(true);
          expect(rto.y1).toBeCloseTo(yh, 6);
          expect(rto.label?.text ?? 'no label', where).toMatch(/^RTO (2\.0 s )?· 1\.5 s left$/);
          expect(overlapping(scene), where).toEqual([]);
        }
    }
  });

  it('a drop that has not happened yet is no drop', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const f = m.frames[7]!; // dropped by the busy module
    const h = (f.tSent + f.tEnd) / 2;
    const y = view(m, NORMAL_TEXT, 600, 64, f.tSent);
    const scene = buildScene(m, { width: 1270, height: 600, y, selected: null, text: NORMAL_TEXT, horizonUs: h });
    const a = scene.arrows.find((x) => x.id === 7)!;
    expect([a.end, a.drop, a.cross, a.reason]).toEqual(['open', null, undefined, null]);
    // It shows once its cross fits above the horizon (a few pixels after it happened).
    const at = buildScene(m, { width: 1270, height: 600, y, selected: null, text: NORMAL_TEXT, horizonUs: f.tEnd });
    expect(at.arrows.find((x) => x.id === 7)!.cross).toBeUndefined();
    const after = buildScene(m, { width: 1270, height: 600, y, selected: null, text: NORMAL_TEXT, horizonUs: y.invert(y(f.tEnd) + 6) });
    expect(after.arrows.find((x) => x.id === 7)!.cross).toBeDefined();
    expect(after.arrows.find((x) => x.id === 7)!.reason?.text).toMatch(/^nfc: module busy/);
  });
});
