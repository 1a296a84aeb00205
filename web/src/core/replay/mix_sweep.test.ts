// The long session's size-mix sweep (mix_sweep.ts) on the real engine: its points are the
// gains the runs give, and the shipped replay's figure has its mixes and seeds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/run.ts';
import { formatErrors } from '../scenarios/errors.ts';
import { parseScenario } from '../scenarios/validate.ts';
import type { Scenario } from '../scenarios/types.ts';
import type { SizeMixSweep } from '../scenarios/reference.ts';
import { mixedRounds } from './long_session_rounds.ts';
import { measure } from './metrics.ts';
import { MixLatencies, mixRuns, mixSweepOf } from './mix_sweep.ts';
import { runReplay, runScenarioOf } from './replay.ts';

function replay(): Scenario {
  const r = parseScenario(readFileSync(new URL('../scenarios/replays/nfc-long-session.json', import.meta.url), 'utf8'));
  if (!r.ok) throw new Error('nfc-long-session.json does not parse');
  return r.scenario;
}

describe('a size-mix sweep in a replay file', () => {
  it('is refused, the field named, where it names a run that does not exist, an app that is no reqresp client, or counts the rounds cannot hold', () => {
    const doc = JSON.parse(readFileSync(new URL('../scenarios/replays/nfc-long-session.json', import.meta.url), 'utf8'));
    Object.assign(doc.reference.size_mix_sweep, { over_run: 'nope', large: [0, 4, 8, 14, 24, 69], paper_large: 5 });
    doc.reference.size_mix_sweep.series[1].run = 'gone';
    const r = parseScenario(JSON.stringify(doc));
    expect(r.ok).toBe(false);
    const text = r.ok ? '' : formatErrors(r.errors, 'f.json');
    expect(text).toContain('reference.size_mix_sweep.over_run: names run "nope", which does not exist (runs: vj, alg1, alg1-delack)');
    expect(text).toContain('reference.size_mix_sweep.series[1].run: names run "gone", which does not exist');
    expect(text).toContain("reference.size_mix_sweep.large[5]: is 69, more than the client's 68 rounds");
    expect(text).toContain('reference.size_mix_sweep.paper_large: is 5, which is not one of "large" (0, 4, 8, 14, 24, 69)');
    doc.reference.size_mix_sweep.app = 0;
    const r0 = parseScenario(JSON.stringify(doc));
    expect(r0.ok ? '' : formatErrors(r0.errors, 'f.json')).toContain('reference.size_mix_sweep.app: is a reqresp_server, not a reqresp_client');
  });
});

describe('mixedRounds', () => {
  it('holds exactly the given number of recipes, the rest tiny commands, every reply tiny; the same seed, the same sequence', () => {
    for (const large of [0, 8, 68]) {
      const rounds = mixedRounds(3, large);
      expect(rounds).toHaveLength(68);
      expect(rounds.filter((r) => r.req >= 1100 && r.req <= 2000)).toHaveLength(large);
      expect(rounds.filter((r) => r.req >= 1 && r.req <= 9)).toHaveLength(68 - large);
      expect(rounds.every((r) => r.resp >= 1 && r.resp <= 9)).toBe(true);
      expect(mixedRounds(3, large)).toEqual(rounds);
    }
    expect(mixedRounds(4, 8)).not.toEqual(mixedRounds(3, 8));
    expect(() => mixedRounds(1, 69)).toThrow('mixedRounds: large is 69, not a whole number from 0 to 68');
  });
});

describe('the size-mix sweep on the engine', () => {
  const m: SizeMixSweep = {
    label: 'gain',
    app: 1,
    large: [0, 68],
    seeds: [1, 2],
    over_run: 'vj',
    series: [{ name: 'Alg. 1', run: 'alg1', paper: 29.32 }],
    paper_large: 0,
    note: 'n',
  };

  it('gives each point the gain the runs give: no recipes, nothing resent early and no gain; all recipes, VJ fits them', async () => {
    const s = replay();
    const plan = mixRuns(m, (r) => runScenarioOf(s, r));
    expect(plan.requests).toBe(68);
    expect(plan.runs).toHaveLength(2 * 2 * 2);
    const lat = new MixLatencies(m);
    for (const r of plan.runs) lat.add(r, await runScenario(JSON.stringify(r.scenario)));
    const sweep = mixSweepOf(m, plan.requests, lat);
    // The same gains, from runs built here by hand: the run's scenario, both apps' rounds drawn.
    const latency = async (run: string, seed: number, large: number): Promise<number> => {
      const base = runScenarioOf(s, run);
      const rounds = mixedRounds(seed, large);
      const apps = base.apps!.map((a) => (a.type === 'reqresp_client' || a.type === 'reqresp_server' ? { ...a, rounds } : a));
      return measure({ metric: 'app_elapsed_s', app: 1 }, await runScenario(JSON.stringify({ ...base, apps })));
    };
    const [none, all] = sweep.series[0]!.points;
    for (const [k, seed] of m.seeds.entries()) {
      expect(none!.each![k]).toBeCloseTo((1 - (await latency('alg1', seed, 0)) / (await latency('vj', seed, 0))) * 100, 9);
      expect(all!.each![k]).toBeCloseTo((1 - (await latency('alg1', seed, 68)) / (await latency('vj', seed, 68))) * 100, 9);
    }
    // Only tiny requests: VJ's RTO never runs out early, so Algorithm 1 changes nothing.
    expect(none!.each).toEqual([0, 0]);
    // Only recipes: VJ's RTO has grown to fit them; Algorithm 1 gains little, but some.
    for (const g of all!.each!) expect(Math.abs(g)).toBeLessThan(5);
    expect(none).toMatchObject({ x: 0, seed: 29.32, standing: 'not judged' });
    expect(all).toMatchObject({ x: 68, seed: null, row: 'Alg. 1, 68 of 68 requests large' });
    expect(all!.simulated).toBeCloseTo((all!.each![0]! + all!.each![1]!) / 2, 12);
  }, 60_000);

  it("is drawn by the shipped replay with at least six mixes and several seeds each, the paper's gains at 8 of 68", async () => {
    const r = await runReplay(replay(), (json) => runScenario(json));
    const sw = r.sweeps.find((x) => x.label === "The long session's gain over the size mix")!;
    expect(sw.series.map((s) => s.name)).toEqual(['Alg. 1', 'Alg. 1 + mod. delayed ACK']);
    for (const s of sw.series) {
      expect(s.points.length).toBeGreaterThanOrEqual(6);
      for (const p of s.points) expect(p.each!.length).toBeGreaterThanOrEqual(5);
      expect(s.points.filter((p) => p.seed !== null).map((p) => p.x)).toEqual([8]);
    }
    // The paper's ordering is judged and holds; the gains stay information.
    const row = (label: string) => r.rows.find((x) => x.label === label)!;
    expect(row('Ordering: VJ slower than Alg. 1')).toMatchObject({ pass: true, tolerance: '> 1' });
    expect(row('Ordering: VJ slower than Alg. 1 + mod. ACK')).toMatchObject({ pass: true });
    expect(row('VJ RTO, spurious retx, appliance')).toMatchObject({ pass: true, tolerance: '> 0' });
    expect(row('Alg. 1 over VJ, latency').pass).toBeNull();
    expect(row('Alg. 1 over VJ, latency').why).toMatch(/^Not judged: the paper says the gain depends solely on the data set: see the sweep/);
    expect(r.pass).toBe(true);
  }, 120_000);
});
