// The seed's packet lists aligned with a run's capture (figures.ts, align.ts), on the real
// engine: the NFC paper's Fig. 5.6 session, whose alignment is printed and recounted from
// tshark's reading of the same frames; Fig. 5.10, whose session the model gives row for
// row; and the count of tick placements that reproduce a figure's sequence.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/run.ts';
import { runTshark, type TsharkRow } from '../packets/testing/tshark.ts';
import type { ReferenceFigure } from '../scenarios/reference.ts';
import type { Scenario } from '../scenarios/types.ts';
import { segmentOf, type Segment } from './align.ts';
import { compareFigure, markText } from './figures.ts';
import { runReplay, runScenarioOf } from './replay.ts';

const sessions: Scenario = JSON.parse(readFileSync(new URL('../scenarios/replays/nfc-bridge-sessions.json', import.meta.url), 'utf8'));
const figure = (label: string): ReferenceFigure => sessions.reference!.figures!.find((f) => f.label === label)!;
const run = (name: string) => runScenario(JSON.stringify(runScenarioOf(sessions, name)));

/** tshark's reading of a frame: its own fields, flags from its Info column. */
function theirs(t: TsharkRow): Partial<Segment> {
  if (t.protocol !== 'TCP') return { length: t.length };
  const flags = /→ \d+ \[([A-Z, ]+)\]/.exec(t.info)![1]!;
  return {
    direction: `${t.source} → ${t.destination}`,
    flags,
    seq: Number(t.values['tcp.seq']),
    ack: flags.includes('ACK') ? Number(t.values['tcp.ack']) : null,
    len: Number(t.values['tcp.len']),
    length: t.length,
  };
}

describe('a seed packet list aligned with a capture', () => {
  it("Fig. 5.6: every row of each list once, in order; ours as tshark reads them; the matches recounted from tshark's fields", async () => {
    const fig = figure('Fig. 5.6');
    const view = await run(fig.run!);
    const c = compareFigure(fig, view);
    console.log(
      c.rows
        .map((r) => `${markText(r).padEnd(16)} ${r.seed ? `${r.seed.no} ${r.seed.info}` : '-'}  |  ${r.ours ? `${r.ours.no} ${r.ours.info}` : '-'}`)
        .join('\n'),
    );
    const link = view.world.links.findIndex((l) => l.name === fig.link);
    const frames = view.trace.frames.filter((f) => f.link === link).map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet }));
    const tshark = runTshark(frames);
    // Each list whole and in order: the seed's 14 rows, and every frame tshark reads.
    expect(c.rows.flatMap((r) => (r.seed ? [r.seed.no] : []))).toEqual(fig.rows.map((_, i) => i + 1));
    expect(c.rows.flatMap((r) => (r.ours ? [r.ours.no] : []))).toEqual(tshark.map((t) => t.no));
    expect(c.matched + c.differing + c.missing).toBe(fig.rows.length);
    expect(c.matched + c.differing + c.extra).toBe(tshark.length);
    for (const r of c.rows.filter((x) => x.ours)) expect(r.ours).toMatchObject(theirs(tshark[r.ours!.no - 1]!));
    // A pair is matched exactly when the seed's row has tshark's fields for our frame.
    const recount = c.rows.filter((r) => r.seed && r.ours && expect.objectContaining(theirs(tshark[r.ours.no - 1]!)).asymmetricMatch(segmentOf(r.seed))).length;
    expect(c.matched).toBe(recount);
    // Where a side has no row, no row of the other could stand for it (same way, same flags).
    for (const r of c.rows.filter((x) => x.mark === 'missing')) expect(r.ours).toBeNull();
    expect(c.rows.filter((r) => r.mark === 'differing').every((r) => r.differs.length > 0)).toBe(true);
  });

  it("Fig. 5.10: the model gives the seed's eleven rows, ARP and TCP, all matched", async () => {
    const c = compareFigure(figure('Fig. 5.10'), await run('fig510'));
    expect(c.rows.map((r) => r.mark)).toEqual(new Array(11).fill('matched'));
    expect(c.rows[0]!.seed!.flags).toBe('who-has');
    // times from each list's first TCP row
    expect(c.rows[2]!.seed!.time).toBe(0);
    expect(c.rows[2]!.ours!.time).toBe(0);
  });

  it("counts the placements that reproduce a figure's sequence: one of two when the second runs with Fig. 5.6's RTO", async () => {
    const fig510 = figure('Fig. 5.10');
    const rto = (ms: number) => [`hosts.0.stack.tcp_rto_initial_ms=${ms}`, `hosts.1.stack.tcp_rto_initial_ms=${ms}`];
    const fig510Run = sessions.reference!.runs!.find((r) => r.name === 'fig510')!;
    const replay: Scenario = {
      ...sessions,
      reference: {
        document: sessions.reference!.document,
        runs: [fig510Run, { name: 'two', set: fig510Run.set, repeat: [rto(5000), rto(1000)] }],
        rows: [{ label: 'segments', run: 'fig510', metric: 'link_frames', link: 'eth', seed: 9, tolerance: { info: true }, why: 'a replay needs a row' }],
        figures: [{ ...fig510, placements: 'two' }],
      },
    };
    const r = await runReplay(replay, (json) => runScenario(json));
    expect(r.figures[0]!.placements).toEqual({ run: 'two', reproduced: 1, of: 2 });
  });
});
