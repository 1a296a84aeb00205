import { describe, expect, it } from 'vitest';
import type { ReferenceRow, ReferenceSweep } from '../scenarios/reference.ts';
import { judgeRow } from './judge.ts';
import { ReplayPlanError } from './plan_error.ts';
import { sweepsOf, sweepUnit } from './sweeps.ts';

const row = (label: string, metric: ReferenceRow['metric'], seed: number, info = false): ReferenceRow => ({
  label,
  metric,
  app: 0,
  seed,
  tolerance: info ? { info: true } : { rel: 0.05 },
  why: 'w',
});

const sweep: ReferenceSweep = {
  label: 'Throughput over line speed',
  x_label: 'line speed (kbit/s)',
  x_log: true,
  series: [
    {
      name: 'SLIP',
      points: [
        { x: 2.4, row: 'SLIP 2.4' },
        { x: 115.2, row: 'SLIP 115.2' },
      ],
    },
  ],
};

describe('a sweep', () => {
  it("takes each point's figures from its judged row: the seed's point beside ours, and where the row stands", () => {
    const rows = [judgeRow(row('SLIP 2.4', 'app_kbps', 1.6), 1.62), judgeRow(row('SLIP 115.2', 'app_kbps', 75.6, true), 60)];
    const [s] = sweepsOf([sweep], rows, 'r');
    expect(s).toMatchObject({ label: 'Throughput over line speed', x_log: true, unit: 'kbit/s' });
    expect(s!.series[0]!.points).toEqual([
      { x: 2.4, row: 'SLIP 2.4', seed: 1.6, simulated: 1.62, standing: 'paper' },
      { x: 115.2, row: 'SLIP 115.2', seed: 75.6, simulated: 60, standing: 'not judged' },
    ]);
  });

  it('refuses rows of two units on one y axis, the point named', () => {
    const rows = [row('SLIP 2.4', 'app_kbps', 1.6), row('SLIP 115.2', 'ping_rtt_avg_ms', 17.7)];
    expect(() => sweepUnit(sweep, 0, rows, 'r')).toThrow(ReplayPlanError);
    expect(() => sweepUnit(sweep, 0, rows, 'r')).toThrow(
      `r: reference.sweeps[0].series[0].points[1].row: "SLIP 115.2" is in ms, but the sweep's first row is in kbit/s (one y axis per sweep)`,
    );
  });
});
