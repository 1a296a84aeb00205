import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/run.ts';
import { NONE } from '../engine/trace_types.ts';
import { shippedText } from './testing/test_runs.ts';
import { diffLines, runFigures } from './run_diff.ts';
import { buildRunModel } from './run_model.ts';
import { ruleForFrame, withRules } from './what_if.ts';
import type { Scenario } from '../scenarios/types.ts';

describe('with and without a dropped frame', () => {
  it('the arduino echo: dropping the data segment makes the apps finish later and adds one RTO retransmission', async () => {
    const doc = JSON.parse(shippedText('arduino-slip')) as Scenario;
    const without = await runScenario(JSON.stringify(doc));
    // The TCP echo's data: the first frame from the pc with a TCP payload in the packet list
    // (found in the run, not numbered by hand), dropped by the rule the page makes for it.
    const view = buildRunModel(without).link(0);
    const k = view.frames.findIndex((f, i) => f.dir === 0 && (view.analysis.rows[i]?.tcp?.len ?? 0) > 0);
    expect(k).toBeGreaterThan(0);
    const data = view.frames[k]!;
    const rule = ruleForFrame(view.frames, data, view.name, 'drop')!;
    const changed = withRules(doc, [rule]) as Scenario;
    const withDrop = await runScenario(JSON.stringify(changed));
    const a = runFigures(without);
    const b = runFigures(withDrop);
    // Counted independently: the frames the stacks marked as re-sent.
    const resent = (r: typeof without) => r.trace.frames.filter((f) => f.retx !== 255 && f.parent === NONE).length;
    expect(a.retransmissions).toBe(resent(without));
    expect(b.retransmissions).toBe(resent(withDrop));
    expect(b.retransmissions).toBe(a.retransmissions + 1);
    expect([...b.byCause.keys()].some((c) => /RTO/.test(c))).toBe(true);
    // The echo client is the app whose data was dropped: it is done later; the pings before
    // it are not changed at all.
    const echo = without.trace.apps.find((x) => x.kind === 1 && x.time > data.tSent && x.time < without.virtualUs)!.app;
    expect(b.doneUs.get(echo)).toBeGreaterThan(a.doneUs.get(echo)!);
    const lines = diffLines(a, b);
    expect(lines.find((l) => l.what === `app ${echo} done at`)!.change).toMatch(/^\+\d+\.\d{3} s$/);
    expect(lines.find((l) => l.what === 'app 1 done at')!.change).toBe('same');
    expect(lines.find((l) => l.what === 'retransmissions')!.change).toBe('+1');
    expect(lines[lines.length - 1]!.what).toBe('spurious retransmissions');
    // Hiding the future: at the instant the data was dropped, nothing has been resent yet,
    // the echo is not done, and whether anything was spurious is not told.
    const t = data.tSent;
    const early = diffLines(runFigures(without, t), runFigures(withDrop, t));
    expect(early.find((l) => l.what === 'retransmissions')!.change).toBe('same');
    expect(early.find((l) => l.what === `app ${echo} done at`)).toMatchObject({ without: 'not yet', with: 'not yet' });
    expect(early.some((l) => l.what.startsWith('spurious'))).toBe(false);
    // A change that changes nothing reads "same" everywhere.
    expect(diffLines(a, a).every((l) => l.change === 'same')).toBe(true);
  });
});
