import * as d3 from 'd3';
import { describe, expect, it } from 'vitest';
import { buildLadderModel } from './ladder_model.ts';
import { AXIS_W, buildScene, fitText, HEADER_H, hitTest, laneAt, laneXs } from './ladder_scene.ts';
import { shippedRun } from './test_runs.ts';

describe('ladder scene', () => {
  it('columns spread right of the time axis; fractional columns in between', () => {
    const xs = laneXs(3, 1000);
    expect(xs[0]).toBeGreaterThan(AXIS_W);
    expect(xs[2]).toBeLessThan(1000);
    expect(laneAt(xs, 0.5)).toBe((xs[0]! + xs[1]!) / 2);
    expect(laneXs(1, 1000)).toHaveLength(1);
  });

  it('cuts labels to the room they have, never to a stub', () => {
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 1000)).toBe('[ACK] Seq=1 Ack=1 Len=0');
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 66)).toBe('[ACK] Seq…');
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 30)).toBeNull();
  });

  it('nfc-bridge-1080: the first second, labelled, with the drop and the RTO bar', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const y = d3.scaleLinear().domain([0, 1_000_000]).range([HEADER_H, 800]);
    const scene = buildScene(m, { width: 1200, height: 800, y, selected: 5 });
    expect(scene.canvas).toBe(false);
    expect(scene.arrows.map((a) => a.id)).toEqual(m.frameIndex.query(scene.t0, scene.t1).map((i) => m.frames[i]!.id));
    const drop = scene.arrows.find((a) => a.drop)!;
    expect(drop.id).toBe(5);
    expect(drop.selected).toBe(true);
    // The busy module discarded it: the cross sits on the appliance's module column.
    expect(drop.cross).toEqual({ x: scene.laneX[1], y: y(m.frames[5]!.tEnd) });
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

  it('retransmissions carry their cause first; too many arrows go to the canvas without labels', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const y = d3.scaleLinear().domain([0, m.lastUs]).range([HEADER_H, 2000]);
    const wide = buildScene(m, { width: 1600, height: 2000, y, selected: null });
    const retx = wide.arrows.find((a) => a.retx)!;
    expect(retx.label?.text).toBe('[RTO expired] [PSH, ACK] Seq=1 Ack=1 Len=1024');
    const crowded = buildScene(m, { width: 1600, height: 2000, y, selected: null, canvasLimit: 10, labelLimit: 10 });
    expect(crowded.canvas).toBe(true);
    expect(crowded.arrows.every((a) => a.label === null && a.reason === null)).toBe(true);
  });
});

describe('timer bars zoomed out', () => {
  it('merges runs too short to see, keeps readable ones apart', async () => {
    const { mergeTimerMarks } = await import('./ladder_scene.ts');
    const bar = (y0: number, y1: number, end: 'rearm' | 'stop' | 'expire', host = 0) => ({
      bar: { kind: 'rto' as const, host, conn: 0, lport: 1, rport: 2, slot: 0, t0: y0, t1: y1, valueUs: 1, end, armSeq: y0 },
      x: 0, y0, y1, width: 5, runs: 1, length: y1 - y0, label: { text: 'RTO', x: 0, y: 0, anchor: 'start' as const },
    });
    const merged = mergeTimerMarks([bar(0, 1, 'rearm'), bar(1, 2, 'rearm'), bar(2.5, 3, 'stop'), bar(10, 50, 'rearm'), bar(50, 90, 'expire'), bar(0, 1, 'stop', 1)]);
    expect(merged.map((m) => [m.bar.host, m.y0, m.y1, m.runs, m.bar.end, m.label === null])).toEqual([
      [0, 0, 3, 3, 'stop', true],
      [0, 10, 50, 1, 'rearm', false],
      [0, 50, 90, 1, 'expire', false],
      [1, 0, 1, 1, 'stop', false],
    ]);
  });
});
