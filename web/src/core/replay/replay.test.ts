// runReplay's plumbing without the engine: a runner that makes each run's report from the
// scenario it is given, so a ratio row (`over_run`) can be checked against plain arithmetic.
import { describe, expect, it } from 'vitest';
import { AppRecordKind, type TraceAppRecord, type WorldDescription } from '../engine/trace_types.ts';
import type { ReferenceRow, ReferenceRun } from '../scenarios/reference.ts';
import type { Scenario } from '../scenarios/types.ts';
import { validateScenario } from '../scenarios/validate.ts';
import type { RunView } from './metrics.ts';
import { ReplayPlanError, rowValue, runCount, runNames, runReplay } from './replay.ts';

// A bulk transfer of `bytes` that takes bytes / 1000 s: the 0 % run 5 s, the other 20 s.
function tiny(rows: ReferenceRow[], extraRuns: ReferenceRun[] = []): Scenario {
  const r = validateScenario({
    version: 1,
    name: 'tiny',
    title: 'tiny',
    duration_ms: 1000,
    hosts: [
      { name: 'a', addr: '10.0.0.1/24' },
      { name: 'b', addr: '10.0.0.2/24' },
    ],
    links: [{ name: 'lan', type: 'ethernet', a: 'a', b: 'b' }],
    apps: [
      { type: 'bulk_receiver', host: 'b' },
      { type: 'bulk_sender', host: 'a', to: 'b', bytes: 5000 },
    ],
    reference: {
      document: 'a test',
      runs: [{ name: 'base', set: [] }, { name: 'slow', set: ['apps.1.bytes=20000'] }, { name: 'never', set: ['apps.1.bytes=1'] }, ...extraRuns],
      rows,
    },
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.scenario;
}

function fakeRun(json: string): Promise<RunView> {
  const s = JSON.parse(json) as { apps: { bytes?: number }[] };
  const bytes = s.apps[1]!.bytes!;
  const report: TraceAppRecord = {
    time: 0,
    host: 0,
    app: 1,
    kind: AppRecordKind.Report,
    text: '',
    error: 0,
    bytes,
    // 'never': the transfer did not finish
    done: bytes !== 1,
    elapsedUs: bytes === 1 ? 0 : bytes * 1000,
  };
  const world = { hosts: [{ name: 'a' }, { name: 'b' }], trace_kinds: [] } as unknown as WorldDescription;
  return Promise.resolve({ world, trace: { frames: [], events: [], apps: [report] } });
}

const ratio = (over: Partial<ReferenceRow>): ReferenceRow => ({
  label: 'slowdown',
  metric: 'app_elapsed_s',
  app: 1,
  run: 'slow',
  over_run: 'base',
  seed: 4,
  tolerance: { rel: 0.01 },
  why: 'w',
  ...over,
});

describe('a ratio row (over_run)', () => {
  it('is the metric on its run divided by the same metric on over_run, in x', async () => {
    const s = tiny([ratio({}), { metric: 'app_elapsed_s', app: 1, run: 'slow', seed: 20, tolerance: { abs: 0 }, why: 'w' }]);
    const r = await runReplay(s, fakeRun);
    expect(r.rows[0]!.simulated).toBe(4);
    expect(r.rows[0]!.over_run).toBe('base');
    expect(r.rows[0]!.pass).toBe(true);
    expect(r.rows[1]!.simulated).toBe(20);
    expect(r.rows[1]!.over_run).toBeUndefined();
    expect(r.pass).toBe(true);
  });

  it('runs the divisor even when no row measures on it alone, and each run once', async () => {
    const s = tiny([ratio({})]);
    expect(runNames(s)).toEqual(['slow', 'base']);
    const seen: number[] = [];
    await runReplay(s, (json) => {
      seen.push((JSON.parse(json) as { apps: { bytes: number }[] }).apps[1]!.bytes);
      return fakeRun(json);
    });
    expect(seen).toEqual([20000, 5000]);
    expect(runNames(tiny([ratio({}), ratio({ run: 'base', over_run: 'slow', seed: 0.25 })]))).toEqual(['slow', 'base']);
  });

  it('has no value, with the divisor named, when over_run lacks the metric', async () => {
    const r = await runReplay(tiny([ratio({ over_run: 'never' })]), fakeRun);
    expect(r.rows[0]!.simulated).toBeNull();
    expect(r.rows[0]!.pass).toBe(false);
    expect(r.rows[0]!.error).toMatch(/run "never" \(the divisor\): app 1: did not finish/);
  });

  it('refuses a divisor of 0', () => {
    const row: ReferenceRow = { metric: 'retransmissions', host: 'a', run: 'x', over_run: 'y', seed: 1, tolerance: { info: true }, why: 'w' };
    expect(rowValue(row, (run) => (run === 'x' ? 6 : 2))).toBe(3);
    expect(() => rowValue(row, (run) => (run === 'x' ? 6 : 0))).toThrow(/retransmissions is 0 on run "y" \(the divisor\)/);
  });
});

describe('a run that repeats (repeat)', () => {
  const elapsed = (run: string): ReferenceRow => ({ metric: 'app_elapsed_s', app: 1, run, seed: 10, tolerance: { rel: 0.01 }, why: 'w' });
  // 2 s, 6 s and 16 s: the mean is 8 s.
  const trials: ReferenceRun = { name: 'trials', set: ['apps.1.bytes=1'], repeat: [['apps.1.bytes=2000'], ['apps.1.bytes=6000'], ['apps.1.bytes=16000']] };

  it('runs each repetition with its overrides after those of the run, and takes the mean', async () => {
    const s = tiny([elapsed('trials'), { ...elapsed('trials'), over_run: 'base', seed: 1.6 }], [trials]);
    const seen: number[] = [];
    const r = await runReplay(s, (json) => {
      seen.push((JSON.parse(json) as { apps: { bytes: number }[] }).apps[1]!.bytes);
      return fakeRun(json);
    });
    expect(seen).toEqual([2000, 6000, 16000, 5000]);
    expect(r.rows[0]!.simulated).toBe(8);
    expect(r.rows[0]!.repeats).toBe(3);
    expect(r.rows[0]!.range).toEqual([2, 16]);
    expect(r.rows[1]!.range).toBeUndefined(); // a ratio row: the numerator's range alone would mislead
    expect(r.rows[0]!.pass).toBe(false); // 8 against 10 within 1 %: judged as any row
    expect(r.rows[1]!.simulated).toBeCloseTo(1.6, 12); // the mean over the divisor's 5 s
    expect(runCount(s)).toBe(4);
    expect(r.rows.length).toBe(2);
  });

  it('has no value, the repetition named, when one repetition lacks the metric', async () => {
    const broken: ReferenceRun = { ...trials, repeat: [['apps.1.bytes=2000'], ['apps.1.bytes=1']] };
    const r = await runReplay(tiny([elapsed('trials')], [broken]), fakeRun);
    expect(r.rows[0]!.simulated).toBeNull();
    expect(r.rows[0]!.error).toMatch(/^repetition 1: app 1: did not finish/);
  });

  it('refuses a repetition whose override breaks the scenario, naming it', async () => {
    const bad: ReferenceRun = { ...trials, repeat: [['apps.1.bytes=2000'], ['apps.1.bytes=-5']] };
    await expect(runReplay(tiny([elapsed('trials')], [bad]), fakeRun)).rejects.toThrow(ReplayPlanError);
    await expect(runReplay(tiny([elapsed('trials')], [bad]), fakeRun)).rejects.toThrow(/run "trials", repetition 1/);
  });
});
