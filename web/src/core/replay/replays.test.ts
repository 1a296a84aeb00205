// Every replay file (web/src/core/scenarios/replays) is a valid scenario with a reference block,
// and every run it names builds into a valid scenario: checked without the engine, so a
// broken replay is found by the fast tests, before `stackscope replay` runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatErrors } from '../scenarios/errors.ts';
import { parseScenario } from '../scenarios/validate.ts';
import { placeholdersOf } from '../scenarios/why_placeholders.ts';
import { longSessionRounds } from './long_session_rounds.ts';
import { whyMeasures } from './why_fill.ts';
import { repetitionsOf, ReplayPlanError, runNames, runScenarioOf, runScenariosOf, viewRunScenario } from './replay.ts';

const DIR = new URL('../scenarios/replays/', import.meta.url);
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('the replay files', () => {
  it('exist', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('%s: valid, a reference block, every run builds, no run left unused', (file) => {
    const r = parseScenario(readFileSync(new URL(file, DIR), 'utf8'));
    if (!r.ok) throw new Error(formatErrors(r.errors, file));
    const ref = r.scenario.reference;
    expect(ref, `${file} has no reference block`).toBeDefined();
    expect(`${r.scenario.name}.json`).toBe(file);
    // a run may feed only a placeholder in a row's reason (why_placeholders.ts)
    const used = new Set(runNames(r.scenario));
    for (const run of ref!.runs ?? []) {
      expect(used.has(run.name), `run ${run.name} is named by no row and no placeholder`).toBe(true);
      for (const s of runScenariosOf(r.scenario, run.name)) expect(s.reference).toBeUndefined();
    }
    for (const row of ref!.rows) expect(row.why.length, row.label).toBeGreaterThan(20);
  });

  it.each(files)("%s: every placeholder in the reasons resolves: a run, and an app of that run's own apps, that the engine will measure", (file) => {
    const r = parseScenario(readFileSync(new URL(file, DIR), 'utf8'));
    if (!r.ok) throw new Error(formatErrors(r.errors, file));
    const ref = r.scenario.reference!;
    for (const row of ref.rows) {
      for (const p of [...placeholdersOf(row.why), ...placeholdersOf(row.expected_why ?? '')]) {
        expect('error' in p.measured ? p.measured.error : '', `${file}, row "${row.label}", ${p.text}`).toBe('');
      }
    }
    for (const [text, m] of whyMeasures(ref)) {
      for (const run of [m.run ?? '', ...(m.over_run === undefined ? [] : [m.over_run])]) {
        // a run may replace `apps`: the app must be in the run's own scenario
        const apps = runScenariosOf(r.scenario, run)[0]!.apps ?? [];
        if (m.app !== undefined) expect(m.app, `${file}: ${text} on run "${run}"`).toBeLessThan(apps.length);
      }
    }
  });

  it('the replays quote our figures through placeholders, and every row has a figure of the seed beside ours', () => {
    const quoting = ['arduino-echo-throughput.json', 'mtcp-fixed-window.json', 'nfc-bridge-sessions.json', 'nfc-long-session.json', 'thesis-5mb-loss.json'];
    for (const file of files) {
      const r = parseScenario(readFileSync(new URL(file, DIR), 'utf8'));
      if (!r.ok) throw new Error(formatErrors(r.errors, file));
      const ref = r.scenario.reference!;
      if (quoting.includes(file)) expect(whyMeasures(ref).size, file).toBeGreaterThan(0);
      // a row that differs from nothing explains another row: its figure is in that row's reason
      expect(
        ref.rows.filter((row) => row.seed === null && row.expected === undefined).map((row) => row.label),
        file,
      ).toEqual([]);
    }
  });

  it('nfc-long-session.json holds the rounds long_session_rounds.ts draws, on both ends', () => {
    const r = parseScenario(readFileSync(new URL('nfc-long-session.json', DIR), 'utf8'));
    if (!r.ok) throw new Error(formatErrors(r.errors, 'nfc-long-session.json'));
    const rounds = longSessionRounds().map(({ req, resp }) => ({ req, resp }));
    expect(rounds).toHaveLength(68);
    for (const app of r.scenario.apps ?? []) {
      if (!('rounds' in app)) continue;
      expect(app.rounds.map(({ req, resp }) => ({ req, resp }))).toEqual(rounds);
    }
    expect((r.scenario.apps ?? []).filter((a) => 'rounds' in a)).toHaveLength(2);
  });

  it('a run whose override breaks the scenario is refused with the field named', () => {
    const r = parseScenario(readFileSync(new URL(files[0]!, DIR), 'utf8'));
    if (!r.ok) throw new Error('unreachable');
    const s = structuredClone(r.scenario);
    s.reference = { document: 'x', runs: [{ name: 'bad', set: ['links.0.baud=-1'] }], rows: s.reference!.rows };
    expect(() => runScenarioOf(s, 'bad')).toThrow(ReplayPlanError);
    expect(() => runScenarioOf(s, 'bad')).toThrow(/links\[0\]\.baud/);
  });

  it('any repetition of a repeating run opens in the views ("name.k", k from 1), not only the first', () => {
    const r = parseScenario(readFileSync(new URL('nfc-bridge-sessions.json', DIR), 'utf8'));
    if (!r.ok) throw new Error(formatErrors(r.errors, 'nfc-bridge-sessions.json'));
    const phases = (s: ReturnType<typeof viewRunScenario>) => s.hosts.map((h) => h.stack?.tcp_timer_phase_ms);
    expect(repetitionsOf(r.scenario, 'fig56-avg')).toBe(50);
    expect(repetitionsOf(r.scenario, 'fig56')).toBe(1);
    expect(phases(viewRunScenario(r.scenario, 'fig56-avg'))).toEqual([0, 0]);
    expect(phases(viewRunScenario(r.scenario, 'fig56-avg.2'))).toEqual([10, 70]);
    expect(viewRunScenario(r.scenario, 'fig56-avg.50')).toEqual(runScenariosOf(r.scenario, 'fig56-avg')[49]);
    expect(() => viewRunScenario(r.scenario, 'fig56-avg.51')).toThrow('nfc-bridge-sessions: run "fig56-avg" has 50 repetition(s), not a repetition 51');
    expect(() => viewRunScenario(r.scenario, 'fig56-avg.0')).toThrow(ReplayPlanError);
    expect(() => viewRunScenario(r.scenario, 'nope.1')).toThrow('no run "nope"');
  });
});
