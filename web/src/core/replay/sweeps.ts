// A replay's sweeps (reference.sweeps): rows that form a curve, the swept value on x, the
// rows' figures on y, ours beside the seed's point by point. Built from the judged rows, so
// a figure never shows a number the table does not; drawn by the page, not judged.

import type { ReferenceSweep } from '../scenarios/reference.ts';
import { unitOf, type JudgedRow } from './judge.ts';
import { ReplayPlanError } from './plan_error.ts';
import { standing, type Standing } from './standing.ts';

export interface SweepPoint {
  x: number;
  /** The row's label. */
  row: string;
  seed: number | null;
  simulated: number | null;
  /** Every value `simulated` is the mean of (a size-mix sweep's seeds), when there are several. */
  each?: number[];
  standing: Standing;
}

export interface Sweep {
  label: string;
  x_label: string;
  x_log: boolean;
  /** The y axis's unit: every row of the sweep has it. */
  unit: string;
  /** How the points were drawn, where the sweep is not made of the table's rows. */
  note?: string;
  series: { name: string; points: SweepPoint[] }[];
}

type Labelled = { label?: string; metric: string; over_run?: string };

const labelOf = (r: Labelled): string => r.label ?? r.metric;

/** The unit of a sweep's rows (validate.ts has checked that each point names one row);
 *  throws ReplayPlanError, the point named, when two rows of one sweep differ in unit. */
export function sweepUnit(sw: ReferenceSweep, i: number, rows: readonly Labelled[], replay: string): string {
  let unit: string | undefined;
  sw.series.forEach((s, j) =>
    s.points.forEach((p, k) => {
      const row = rows.find((r) => labelOf(r) === p.row);
      if (!row) throw new ReplayPlanError(`${replay}: reference.sweeps[${i}].series[${j}].points[${k}].row: names row "${p.row}", which does not exist`);
      const u = unitOf({ metric: row.metric, ...(row.over_run === undefined ? {} : { over_run: row.over_run }) });
      unit ??= u;
      if (u !== unit)
        throw new ReplayPlanError(
          `${replay}: reference.sweeps[${i}].series[${j}].points[${k}].row: "${p.row}" is in ${u}, but the sweep's first row is in ${unit} (one y axis per sweep)`,
        );
    }),
  );
  return unit ?? '?';
}

/** The sweeps with each point's figures taken from its judged row. */
export function sweepsOf(sweeps: readonly ReferenceSweep[], rows: readonly JudgedRow[], replay: string): Sweep[] {
  return sweeps.map((sw, i) => ({
    label: sw.label,
    x_label: sw.x_label,
    x_log: sw.x_log === true,
    unit: sweepUnit(sw, i, rows, replay),
    series: sw.series.map((s) => ({
      name: s.name,
      points: s.points.map((p) => {
        const r = rows.find((x) => x.label === p.row)!;
        return { x: p.x, row: p.row, seed: r.seed, simulated: r.simulated, standing: standing(r) };
      }),
    })),
  }));
}
