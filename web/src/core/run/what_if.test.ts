// What-if rules against real runs of the engine: a rule hits exactly the frame it was made
// for, an extra copy made by a duplicate fault cannot be named, and the chip names the
// frame as the packet list does.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/run.ts';
import { Fate, type TraceFrame } from '../engine/trace_types.ts';
import { applySet } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/types.ts';
import { shippedText } from './testing/test_runs.ts';
import { buildRunModel, type RunModel } from './run_model.ts';
import { describeRule, frameOfRule, isExtraCopy, ruleForFrame, withRules, type WhatIfRule } from './what_if.ts';

async function run(doc: Scenario, rules: WhatIfRule[] = []): Promise<RunModel> {
  return buildRunModel(await runScenario(JSON.stringify(withRules(doc, rules))));
}

/** The frames a targeted rule dropped (not the link, not a random fault). */
function droppedByRules(m: RunModel): TraceFrame[] {
  const reason = m.result.world.drop_reasons.indexOf('DROP_FAULT_RULE');
  expect(reason).toBeGreaterThanOrEqual(0);
  return m.result.trace.frames.filter((f) => f.fate === Fate.Dropped && f.reason === reason);
}

/** The same datagram handed to the link at the same instant (ids differ between runs). */
function same(a: TraceFrame | undefined, b: TraceFrame): boolean {
  return !!a && a.link === b.link && a.dir === b.dir && a.tSent === b.tSent && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}

const arduino = JSON.parse(shippedText('arduino-slip')) as Scenario;

describe('what-if rules on a link that duplicates frames', async () => {
  const doc = applySet(arduino, 'links.serial.faults=[{"action":"duplicate","p":0.3}]') as Scenario;
  const m = await run(doc);
  const frames = m.link(0).frames;
  const copyAt = frames.findIndex(isExtraCopy);

  it('has extra copies to test with', () => {
    expect(copyAt).toBeGreaterThan(0);
  });

  it('refuses to make a rule for an extra copy', () => {
    expect(ruleForFrame(frames, frames[copyAt]!, 'serial', 'drop')).toBeNull();
    expect(ruleForFrame(frames, frames[copyAt]!, 'serial', 'delay', 500_000)).toBeNull();
  });

  it('drops exactly the frame after a copy that it was made for', async () => {
    const copy = frames[copyAt]!;
    const target = frames.slice(copyAt + 1).find((f) => f.dir === copy.dir && !isExtraCopy(f))!;
    const rule = ruleForFrame(frames, target, 'serial', 'drop')!;
    expect(frameOfRule(m, rule)).toBe(target);
    const after = await run(doc, [rule]);
    const dropped = droppedByRules(after);
    expect(dropped).toHaveLength(1);
    expect(same(dropped[0], target)).toBe(true);
    expect(frameOfRule(after, rule)).toBe(dropped[0]);
  });
});

describe('two what-if drops in one direction', async () => {
  const m0 = await run(arduino);
  const ab = (m: RunModel) => m.link(0).frames.filter((f) => f.dir === 0);

  it('each drops the frame it was made for, the second made on the run with the first', async () => {
    const first = ab(m0)[1]!;
    const r1 = ruleForFrame(m0.link(0).frames, first, 'serial', 'drop')!;
    const m1 = await run(arduino, [r1]);
    // A frame after the first drop: its count includes the dropped frame, as the list does.
    const second = ab(m1)[6]!;
    const r2 = ruleForFrame(m1.link(0).frames, second, 'serial', 'drop')!;
    expect(r2.nth).toBeGreaterThan(r1.nth);
    const m2 = await run(arduino, [r1, r2]);
    const dropped = droppedByRules(m2);
    expect(dropped).toHaveLength(2);
    expect(same(dropped[0], first)).toBe(true);
    expect(same(dropped[1], second)).toBe(true);
  });
});

describe('the words of a rule', async () => {
  const m = await run(arduino);
  const frames = m.link(0).frames;

  it('name the frame by its No. in the packet list, the link and the direction', () => {
    const f = frames.filter((x) => x.dir === 1)[2]!;
    const no = m.link(0).analysis.rows[m.link(0).rowOf.get(f.id)!]!.no;
    const drop = ruleForFrame(frames, f, 'serial', 'drop')!;
    expect(drop.nth).toBe(3);
    expect(describeRule(drop, m)).toBe(`drop No. ${no} (serial, arduino → pc)`);
    expect(describeRule(ruleForFrame(frames, f, 'serial', 'delay', 1_000_000)!, m)).toBe(`delay No. ${no} by 1.0 s (serial, arduino → pc)`);
  });

  it('say so when the run has no such frame', () => {
    expect(describeRule({ action: 'drop', link: 'serial', dir: 'ab', nth: 9999 }, m)).toBe('drop frame 9999 a→b on serial (not in this run)');
  });
});
