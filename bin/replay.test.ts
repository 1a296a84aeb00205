// stackscope replay: the table, --json, and the exit status: 1 when a row is outside its
// tolerance (a replay with a deliberately wrong seed figure), 2 for a bad file or name.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli_capture.ts';
import { sig4 } from '../web/src/core/replay/number_text.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OK = join(ROOT, 'web/src/core/replay/testdata/ok.json');
const WRONG = join(ROOT, 'web/src/core/replay/testdata/wrong-seed.json');
const RATIO = join(ROOT, 'web/src/core/replay/testdata/ratio.json');
const FIGURES = join(ROOT, 'web/src/core/replay/testdata/why-figures.json');

interface JsonRow {
  label: string;
  run: string;
  seed: number | null;
  simulated: number | null;
  pass: boolean | null;
  why: string;
}
const rowsOf = (out: string): JsonRow[] => (JSON.parse(out) as { replays: { rows: JsonRow[] }[] }).replays.flatMap((r) => r.rows);

describe('stackscope replay', () => {
  it('prints every row and exits 0 when all are within their tolerance', async () => {
    const r = await cli('replay', OK);
    expect(r.code, r.err).toBe(0);
    for (const label of ['57600', '115200', 'retx', 'info']) expect(r.out).toMatch(new RegExp(`\\b${label}\\b`));
    expect(r.out).toContain('4 rows: 3 match the paper, 0 match the corrected theory, 1 differs (shown, not judged)');
    expect(r.out).not.toContain('2 x (84 + 2) x 10 / 57600 s');
    expect((await cli('replay', OK, '--why')).out).toContain('1. 57600: 2 x (84 + 2) x 10 / 57600 s');
  });

  it("--figures: the seed's packet lists aligned with the runs' captures, each row marked; --json carries them", async () => {
    const r = await cli('replay', 'nfc-bridge-sessions', '--figures');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Fig. 5.10 beside run fig510, link eth: 11 of 11 rows matched, 0 differing, 0 missing, 0 extra');
    // the clean close (link channel a_first): the paper's 14 rows and nothing else, wherever the ticks fall
    expect(r.out).toContain(
      "Fig. 5.6 beside run fig56, link eth: 14 of 14 rows matched, 0 differing, 0 missing, 0 extra; the seed's sequence of TCP segments in 50 of 50 tick placements (run fig56-avg)",
    );
    // the ARP pair, in both lists: one row each, matched
    expect(r.out).toMatch(/^ +matched +192\.168\.1\.102 asks +1 +-0\.000630 +who-has +42 +1 +-0\.\d+ +who-has +42$/m);
    // Fig. 5.8's response retransmission: the timers start with the connection (tcp_timer_on_demand), so ours has it
    expect(r.out).toMatch(/^ +matched +192\.168\.1\.202 → 192\.168\.1\.102 +8 +1\.749340 +PSH, ACK +1 +1025 +1024 +1078 +8 +1\.75\d+ +PSH, ACK /m);
    // a row of the seed's that ours lacks (Fig. 5.8's second FIN, not modelled): the seed's side only
    expect(r.out).toMatch(/^ +missing +192\.168\.1\.202 → 192\.168\.1\.102 +13 +2\.389683 +FIN, ACK +1025 +1026 +0 +60$/m);
    expect((await cli('replay', 'nfc-bridge-sessions')).out).not.toContain('beside run');
    const j = JSON.parse((await cli('replay', 'nfc-bridge-sessions', '--json')).out) as {
      replays: { figures: { label: string; matched: number; seedRows: number; rows: { mark: string }[]; placements?: { of: number } }[] }[];
    };
    const fig56 = j.replays[0]!.figures.find((f) => f.label === 'Fig. 5.6')!;
    expect(fig56.rows.filter((x) => x.mark === 'matched')).toHaveLength(fig56.matched);
    expect(fig56.seedRows).toBe(14);
    expect(fig56.placements?.of).toBe(50);
  });

  it("--figures: the long session's size-mix sweep as a table, each mix's mean gain and its range over the seeds, the paper's gain at 8 of 68", async () => {
    const r = await cli('replay', 'nfc-long-session', '--figures');
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n');
    const head = lines.findIndex((l) => l.includes("The long session's gain over the size mix (% less latency than the vj run), not judged:"));
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1]).toMatch(
      /^ +large requests among the 68 +Alg\. 1, mean \(min to max\) +paper +Alg\. 1 \+ mod\. delayed ACK, mean \(min to max\) +paper$/,
    );
    const mixes = lines.slice(head + 2, head + 10);
    expect(mixes.map((l) => Number(l.trim().split(/ +/)[0]))).toEqual([0, 4, 8, 14, 24, 34, 51, 68]);
    // no recipes: Algorithm 1 gains nothing, in every seed; the paper's two gains on the line of 8 of 68 only
    expect(mixes[0]).toMatch(/^ +0 +0 \(0 to 0\) +-?\d/);
    expect(mixes[2]).toMatch(/ 29\.32 .* 28\.7$/);
    expect(mixes.filter((l) => l.includes('29.32'))).toHaveLength(1);
    expect(lines[head + 10]).toMatch(/^ +The curve: the mean over seeds 1 to 5/);
  });

  it('--json: the same rows, each run measured on its own overrides', async () => {
    const r = await cli('replay', OK, '--json');
    expect(r.code).toBe(0);
    const rows = rowsOf(r.out);
    expect(rows.map((x) => x.pass)).toEqual([true, true, true, null]);
    // 2 x 86 bytes x 10 bits at 57600 and at 115200 baud, in ms, each frame rounded up to a whole us
    expect(rows[0]!.simulated).toBeCloseTo((2 * 86 * 10 * 1000) / 57600, 2);
    expect(rows[1]!.simulated).toBeCloseTo((2 * 86 * 10 * 1000) / 115200, 2);
    expect(rows[1]!.run).toBe('fast');
  });

  it('a ratio row (over_run): the metric on one run over the same on another, in x, both runs named', async () => {
    const r = await cli('replay', RATIO);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/- \/ fast +57600 over 115200 +ping_rtt_min_ms ratio \(x\) +2 +2 +0\.0 % +the paper .* ok \(paper\)/);
    const j = await cli('replay', RATIO, '--json');
    const row = (JSON.parse(j.out) as { replays: { rows: (JsonRow & { over_run?: string })[] }[] }).replays[0]!.rows[0]!;
    expect(row.over_run).toBe('fast');
    // (2 x 86 x 10 / 57600) / (2 x 86 x 10 / 115200), each frame's time rounded to a whole us
    expect(row.simulated).toBeCloseTo(2, 3);
  });

  it("says what each row is judged against, and how far ours is from the paper's figure even when a corrected theory passes it", async () => {
    const r = await cli('replay', 'mtcp-fixed-window');
    expect(r.code, r.err).toBe(0);
    // 10 MB: the paper's 2.776 Mbit/s, ours about 7.01, judged against cwnd/RTT = 8 Mbit/s
    expect(r.out).toMatch(/cwnd 20000, 10 MB, receiver +app_mbps \(Mbit\/s\) +2\.776 +7\.0\d\d +\+15\d % +theory 8 \(−1\d\.\d %\) +±15 % +ok \(theory\)/);
    expect(r.out).toContain("row 3 (cwnd 20000, 10 MB, receiver) is judged against a corrected theory, 8: cwnd/RTT = 8 Mbit/s: the seed's 10 MB runs");
    // the sender's figure: its six-digit paper figure (the copy into the socket) written with
    // four, judged against cwnd/RTT since our sender counts to the receiver's OK
    expect(r.out).toMatch(/cwnd 20000, 1 MB, sender +app_mbps \(Mbit\/s\) +32900 +7\.0\d\d +−100 % +theory 8 \(−1\d\.\d %\) +±15 % +ok \(theory\)/);
    expect(r.out).toMatch(/cwnd 40000, 10 MB, sender +app_mbps \(Mbit\/s\) +6\.899 +15\.\d\d +\+11\d % +theory 16 \(−\d\.\d %\) +±15 % +ok \(theory\)/);
    expect(r.out).toContain('7 rows: 1 matches the paper, 6 match the corrected theory, 0 differ (shown, not judged)');
  });

  it('exits 1 when a row is outside its tolerance, and says which', async () => {
    const r = await cli('replay', WRONG);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/wrong .*FAIL/);
    expect(r.out).toContain('1 matches the paper, 0 match the corrected theory, 1 outside the tolerance, 0 differ (shown, not judged)');
    expect(r.out).toMatch(/right .* ok/);
    const j = await cli('replay', WRONG, '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out).pass).toBe(false);
    expect(rowsOf(j.out).map((x) => x.pass)).toEqual([true, false]);
  });

  it('one failing replay among passing ones still exits 1', async () => {
    expect((await cli('replay', OK, WRONG)).code).toBe(1);
  });

  it('fills the figures of ours a reason quotes from the runs, as the table writes them, and runs a run only a reason names', async () => {
    const r = await cli('replay', FIGURES, '--json');
    expect(r.code, r.err).toBe(0);
    const rows = rowsOf(r.out);
    const fast = rows.find((x) => x.label === '115200')!;
    // the slow run feeds only the placeholder: its wire time, 2 x 86 x 10 / 9600 s = 179.1667 ms, and 12 times the fast line's
    const said = `never judged; the fast line's minimum is ${sig4(fast.simulated)} ms, the slow line's 179.2 ms, 12 x the fast one's`;
    expect(rows.find((x) => x.label === 'info')!.why).toBe(said);
    expect((await cli('replay', FIGURES, '--why')).out).toContain(`2. info: ${said}`);
  });

  it('refuses a placeholder that names an unknown run or metric before running anything: the file, the row and the placeholder named', async () => {
    const file = join(ROOT, 'web/src/core/scenarios/testdata/bad/reference-placeholder.json');
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      `${file}: line 51, column 16: reference.rows[0].why: row "rtt 0": placeholder "{nope.ping_rtt_avg_ms[0]}" (its run) names run "nope", which does not exist`,
    );
    expect(r.err).toContain('reference.rows[1].why: row "rtt 1": placeholder "{fast.no_such_metric}" names metric "no_such_metric", which does not exist');
  });

  it('gives the same numbers on a second run', async () => {
    const a = await cli('replay', OK, '--json');
    const b = await cli('replay', OK, '--json');
    expect(a.out).toBe(b.out);
  });

  it('exits 2 for an unknown name, a scenario without reference, a bad reference, an unknown option', async () => {
    const none = await cli('replay', 'no-such-replay');
    expect(none.code).toBe(2);
    expect(none.err).toContain('no such scenario');
    const plain = await cli('replay', join(ROOT, 'web/src/core/scenarios/testdata/good/minimal.json'));
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('has no "reference" block');
    const bad = await cli('replay', join(ROOT, 'web/src/core/scenarios/testdata/bad/reference-dangling.json'));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('reference.rows[0].run: names run "slow", which does not exist');
    expect((await cli('replay', OK, '--jsn')).code).toBe(2);
  });
});
