import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import { linearPx } from './ladder_lod.ts';
import type { TimerMark } from './ladder_scene.ts';
import { mergeTimerRuns, type TimerRunPx } from './timer_merge.ts';
import type { TimerBar } from './timers.ts';
import { AxisTransform } from './axis_transform.ts';

/** Runs of one RTO timer (host 0) and one of host 1, as [y0, y1, end]. */
function runs(list: [number, number, TimerBar['end'], number?][]) {
  const bars: TimerBar[] = list.map(([y0, y1, end, host = 0], k) => ({
    kind: 'rto',
    host,
    conn: 0,
    lport: 1,
    rport: 2,
    slot: 0,
    t0: y0,
    t1: y1,
    valueUs: 1,
    end,
    armSeq: k,
  }));
  const made: number[] = [];
  return {
    made,
    src: {
      count: bars.length,
      px(k: number, r: TimerRunPx) {
        const b = bars[k]!;
        Object.assign(r, { key: b.host, y0: b.t0, y1: b.t1, length: b.t1 - b.t0, running: false });
      },
      mark(k: number): TimerMark {
        made.push(k);
        const b = bars[k]!;
        return { bar: b, x: 0, y0: b.t0, y1: b.t1, width: 5, runs: 1, length: b.t1 - b.t0, running: false, label: null };
      },
      bar: (k: number) => bars[k]!,
    },
  };
}

describe('timer runs merged before their marks are made', () => {
  it('makes a mark only for a run that starts a bar; a merged bar ends as its last run', () => {
    // 1000 re-armed runs of 0.5 px touching each other, a readable run 10 px later, another timer
    const list: [number, number, TimerBar['end'], number?][] = Array.from({ length: 1000 }, (_, k) => [k * 0.5, k * 0.5 + 0.5, 'rearm']);
    list.push([510, 550, 'expire'], [0, 1, 'stop', 1]);
    const { made, src } = runs(list);
    const out = mergeTimerRuns(src);
    expect(out.map((m) => [m.bar.host, m.y0, m.y1, m.runs, m.bar.end])).toEqual([
      [0, 0, 500, 1000, 'rearm'],
      [0, 510, 550, 1, 'expire'],
      [1, 0, 1, 1, 'stop'],
    ]);
    expect(made).toEqual([0, 1000, 1001]);
    // the merged bar's bar runs to its last run's end; the runs' own bars are untouched
    expect(out[0]!.bar.t1).toBe(500);
    expect(src.bar(0).t1).toBe(0.5);
  });

  it('a bar of one run keeps its own bar object (a horizon may have cut it)', () => {
    const { src } = runs([[0, 10, 'stop']]);
    const cut = { ...src.bar(0), t1: 5, end: 'open' as const };
    const out = mergeTimerRuns({ ...src, mark: (k) => ({ ...src.mark(k), bar: cut }) });
    expect(out[0]!.bar).toBe(cut);
  });
});

describe('linearPx', () => {
  it('gives the zoomed scale’s numbers to the last bit', () => {
    const base = d3.scaleLinear().domain([0, 1.02e8]).range([40, 590]);
    for (const [k, at] of [
      [1, 0],
      [3.7, 1e7],
      [812.3, 5.5e7],
    ] as const) {
      const s = base(at);
      const y = new AxisTransform(k, s - k * s).rescale(base);
      const f = linearPx(y);
      for (let t = -1e6; t < 1.1e8; t += 997_123.7) expect(f(t)).toBe(y(t));
    }
  });
});
