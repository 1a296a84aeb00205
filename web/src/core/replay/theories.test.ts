// The corrected theories the replays judge rows against are computed from first principles
// (frame sizes, the line rate, the window over the round trip), never copied from a run:
// each is checked here against its formula, without the engine. And an information row is
// never a ratio of two figures the replay already shows as rows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatErrors } from '../scenarios/errors.ts';
import type { ReferenceRow } from '../scenarios/reference.ts';
import { parseScenario } from '../scenarios/validate.ts';

const DIR = new URL('../scenarios/replays/', import.meta.url);

function rowsOf(file: string): ReferenceRow[] {
  const r = parseScenario(readFileSync(new URL(file, DIR), 'utf8'));
  if (!r.ok) throw new Error(formatErrors(r.errors, file));
  return r.scenario.reference!.rows;
}

function row(rows: readonly ReferenceRow[], run: string, metric: string): ReferenceRow {
  const found = rows.filter((r) => r.run === run && r.metric === metric && r.over_run === undefined);
  expect(found, `${run} ${metric}`).toHaveLength(1);
  return found[0]!;
}

/** Round trip of a SLIP ping on a line with no latency: each way, the IP datagram, 2 END
 *  bytes and any escaped bytes, 10 bits a character (8N1), in ms. */
const wireMs = (ipBytes: number, escapes: number, baud: number): number => (2 * (ipBytes + 2 + escapes) * 10 * 1000) / baud;
/** One byte time each way, in ms: an average of one escaped byte per frame. */
const escapeSlackMs = (baud: number): number => (2 * 10 * 1000) / baud;

describe('corrected theories, each its formula', () => {
  it('arduino-ping: the averages without the converter, against the line theory with END bytes (and the escapes of 548 B)', () => {
    const rows = rowsOf('arduino-ping.json');
    for (const [run, ip, esc] of [
      ['line-56', 84, 0],
      ['line-16', 44, 0],
      ['line-548', 576, 4],
    ] as const) {
      const r = row(rows, run, 'ping_rtt_avg_ms');
      expect(r.tolerance.info, run).toBeUndefined();
      expect(r.expected, run).toBeCloseTo(wireMs(ip, esc, 57600), 4);
      expect(r.tolerance.abs, run).toBeCloseTo(escapeSlackMs(57600), 4);
      // the paper's measured figure stays beside it
      expect(r.seed, run).toBe(row(rows, run.replace('line', 'usb'), 'ping_rtt_avg_ms').seed);
    }
  });

  it('cslip-link-speed: every ping average against the wire time of 86 B each way at its line speed', () => {
    const rows = rowsOf('cslip-link-speed.json');
    for (const baud of [2400, 9600, 19200, 38400, 57600, 115200]) {
      const run = `rtt-${baud / 100}`;
      const r = row(rows, run, 'ping_rtt_avg_ms');
      expect(r.expected, run).toBeCloseTo(wireMs(84, 0, baud), 4);
      expect(r.tolerance.abs, run).toBeCloseTo(escapeSlackMs(baud), 4);
      expect(r.expected, run).toBe(row(rows, run, 'ping_rtt_min_ms').expected);
    }
  });

  it('mtcp-fixed-window: the sender rows against cwnd / RTT, as the receiver rows', () => {
    const rows = rowsOf('mtcp-fixed-window.json');
    for (const [label, cwnd] of [
      ['cwnd 20000, 1 MB, sender', 20000],
      ['cwnd 20000, 10 MB, sender', 20000],
      ['cwnd 40000, 10 MB, sender', 40000],
    ] as const) {
      const r = rows.find((x) => x.label === label)!;
      expect(r.expected, label).toBeCloseTo((cwnd * 8) / 0.02 / 1e6, 9);
      const receiver = rows.find((x) => x.run === r.run && x.app === 0 && x.expected !== undefined)!;
      expect(r.tolerance, label).toEqual(receiver.tolerance);
    }
  });

  it('arduino-echo-throughput: the line limits, from a 536 B segment in a 582.58-character SLIP frame at 5760 characters/s', () => {
    const rows = rowsOf('arduino-echo-throughput.json');
    // 2 END + 40 + 536, and SLIP's escapes: the payload pattern (offset mod 251) holds 0xC0
    // and 0xDB once each per 251 bytes, the headers about 2 in 256
    const frameMs = ((2 + 40 + 536 + (536 * 2) / 251 + (40 * 2) / 256) / 5760) * 1000;
    const perSegment = (ms: number): number => (536 * 8) / ms;
    for (const run of ['n1', 'n2', 'tsq1', 'tsq2']) expect(row(rows, run, 'apps_total_kbps').expected, run).toBeCloseTo(perSegment(frameMs + 1), 2);
    expect(row(rows, 'n5', 'apps_total_kbps').expected).toBeCloseTo(perSegment(frameMs), 2);
  });
});

describe('information rows', () => {
  it('no information row is a ratio of two runs whose figures the replay shows as rows of the same metric', () => {
    for (const file of ['thesis-5mb-loss.json', 'arduino-echo-throughput.json', 'cslip-link-speed.json', 'mtcp-fixed-window.json', 'arduino-ping.json']) {
      const rows = rowsOf(file);
      const shown = (run: string, r: ReferenceRow) => rows.some((x) => x.over_run === undefined && x.run === run && x.metric === r.metric && x.app === r.app);
      const derived = rows.filter((r) => r.tolerance.info && r.over_run !== undefined && shown(r.run ?? '', r) && shown(r.over_run, r));
      expect(
        derived.map((r) => r.label),
        file,
      ).toEqual([]);
    }
  });
});
