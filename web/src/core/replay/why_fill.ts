// A replay's texts quote figures of ours as placeholders (web/src/core/scenarios/
// why_placeholders.ts), filled here from the runs as the tables write a figure: four
// significant digits (number_text.ts) and the unit the table's column has.

import type { Reference } from '../scenarios/reference.ts';
import { fillPlaceholders, placeholdersOf, type Measured } from '../scenarios/why_placeholders.ts';
import { unitOf } from './judge.ts';
import { sig4 } from './number_text.ts';

/** Each distinct placeholder of the rows' texts (keyed by its text) and what it measures;
 *  validate.ts has already refused a placeholder that cannot be read. */
export function whyMeasures(ref: Pick<Reference, 'rows'>): Map<string, Measured> {
  const out = new Map<string, Measured>();
  for (const row of ref.rows) {
    for (const p of [...placeholdersOf(row.why), ...placeholdersOf(row.expected_why ?? '')]) {
      if (!('error' in p.measured)) out.set(p.text, p.measured);
    }
  }
  return out;
}

/** A measured figure as the text quotes it: "444.7 s", "699 segments", "5.667 x". */
export function figureText(m: Measured, value: number): string {
  return `${sig4(value)} ${unitOf(m)}`;
}

/** The text with every placeholder replaced by its figure (`figures`, keyed by the
 *  placeholder's text), or by "—" and the reason when the run lacks the figure. */
export function fillWhy(text: string, figures: ReadonlyMap<string, number | Error>): string {
  return fillPlaceholders(text, (p) => {
    const v = figures.get(p.text);
    if (v === undefined || 'error' in p.measured) return p.text;
    return v instanceof Error ? `— (${v.message})` : figureText(p.measured, v);
  });
}
