// Figures of ours that a replay's texts quote (a row's `why` and `expected_why`) are
// placeholders the replay fills from its runs, never numbers written in: a change in the
// engine would leave a written number stale (docs/replays.md, "Figures in the texts").
//
//   {RUN.METRIC}              the metric on run RUN ("" before the dot: the file as written)
//   {RUN.METRIC[ARG]}         ARG is the app index, host or link the metric needs
//   {RUN/OVER.METRIC[ARG]}    a ratio: the metric on RUN divided by the same on OVER
//
// The fields are a row's (run, over_run, metric, app, host, link), so a placeholder is
// measured and checked exactly as a row is.

import { HOST_METRICS, LINK_METRICS, METRIC_NAMES, type MetricName } from './metric_kinds.ts';
import type { ReferenceRow } from './schema_types.ts';

/** What a placeholder measures: the fields of a row that say what is measured. */
export type Measured = Pick<ReferenceRow, 'metric' | 'run' | 'over_run' | 'app' | 'host' | 'link'>;

export interface Placeholder {
  /** As written, braces included: "{n30.apps_total_kbps}". */
  text: string;
  /** Where it starts in the text. */
  index: number;
  /** What it measures, or why it cannot be read. */
  measured: Measured | { error: string };
}

const NAME = '[a-z][a-z0-9_-]*';
const FORM = new RegExp(`^(${NAME})?(?:/(${NAME}))?\\.([a-z_]+)(?:\\[([a-z0-9_-]+)\\])?$`);

/** The placeholders of a text, each parsed (or with the reason it cannot be). */
export function placeholdersOf(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(/\{([^{}]*)\}/g)) out.push({ text: m[0], index: m.index, measured: parse(m[1]!) });
  return out;
}

function parse(body: string): Measured | { error: string } {
  const m = FORM.exec(body);
  if (!m) return { error: 'is not {RUN.METRIC}, {RUN.METRIC[APP, HOST or LINK]} or {RUN/OVER_RUN.METRIC[...]}' };
  const [, run, over, metric, arg] = m;
  if (!(METRIC_NAMES as readonly string[]).includes(metric!)) return { error: `names metric "${metric}", which does not exist` };
  const out: Measured = { metric: metric as MetricName };
  if (run !== undefined) out.run = run;
  if (over !== undefined) out.over_run = over;
  if (arg === undefined) return out;
  if (/^[0-9]+$/.test(arg)) out.app = Number(arg);
  else if (HOST_METRICS.has(out.metric)) out.host = arg;
  else if (LINK_METRICS.has(out.metric)) out.link = arg;
  else return { error: `gives "[${arg}]", but metric "${metric}" reads no host or link` };
  return out;
}

/** The text with each placeholder replaced by `value(placeholder)`. */
export function fillPlaceholders(text: string, value: (p: Placeholder) => string): string {
  let out = '';
  let at = 0;
  for (const p of placeholdersOf(text)) {
    out += text.slice(at, p.index) + value(p);
    at = p.index + p.text.length;
  }
  return out + text.slice(at);
}
