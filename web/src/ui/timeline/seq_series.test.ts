import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import type { PacketRow, TcpRowInfo } from '../../core/packets/index.ts';
import { graphModel, streamsOf } from './graph_model.ts';
import { seqExtent, seqInView, seqSeries } from './seq_series.ts';
import { dataDirection, defaultChoice, tcpStreams } from './tcp_streams.ts';
import { segmentAt } from './seq_graph_draw.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';

const A = '10.0.0.1';
const B = '10.0.0.2';
let no = 0;
function row(src: string, flags: number, seqRel: number, ackRel: number, len: number, extra: Partial<PacketRow> = {}, win = 1000, stream = 0): PacketRow {
  const fromA = src === A;
  const tcp: TcpRowInfo = { stream, srcPort: fromA ? 5000 : 80, dstPort: fromA ? 80 : 5000, flags, seqRel, ackRel, len, winValue: win, win };
  return {
    no: ++no,
    timeS: 0,
    source: src,
    destination: fromA ? B : A,
    protocol: 'TCP',
    length: 40 + len,
    info: '',
    flags: [],
    colour: { name: '', fg: '', bg: '' },
    tcp,
    ...extra,
  };
}
const SYN = 0x02;
const ACK = 0x10;
const PSH_ACK = 0x18;

// A -> B: handshake, three segments, the second lost and re-sent (Wireshark flags it).
const rows = [
  row(A, SYN, 0, 0, 0),
  row(B, SYN | ACK, 0, 1, 0),
  row(A, ACK, 1, 1, 0),
  row(A, PSH_ACK, 1, 1, 100),
  row(A, PSH_ACK, 101, 1, 100),
  row(A, PSH_ACK, 201, 1, 100),
  row(B, ACK, 1, 101, 0, {}, 900),
  row(B, ACK, 1, 101, 0, { flags: ['tcp.analysis.duplicate_ack'] }, 900),
  row(A, PSH_ACK, 101, 1, 100, { flags: ['tcp.analysis.retransmission'] }),
  row(B, ACK, 1, 301, 0, {}, 1000),
];
const times = rows.map((_, k) => k * 1000);
const ids = rows.map((_, k) => 100 + k);

describe('time-sequence series', () => {
  it('data segments as bars, retransmissions marked, ACK and window stairs from the peer', () => {
    const s = seqSeries({ rows, times, ids, stackRetx: () => false }, 0, { addr: A, port: 5000 });
    expect(s.segments.map((g) => [g.t, g.seq, g.end, g.retx])).toEqual([
      [3000, 1, 101, false],
      [4000, 101, 201, false],
      [5000, 201, 301, false],
      [8000, 101, 201, true],
    ]);
    expect(s.acks.map((p) => [p.t, p.v])).toEqual([
      [1000, 1],
      [6000, 101],
      [7000, 101],
      [9000, 301],
    ]);
    expect(s.windows.map((p) => [p.t, p.v])).toEqual([
      [1000, 1001],
      [6000, 1001],
      [7000, 1001],
      [9000, 1301],
    ]);
    expect([s.t0, s.t1]).toEqual([0, 9000]);
    expect(s.segments[3]!.frameId).toBe(108);
  });

  it("the stack's own word marks a retransmission Wireshark did not see", () => {
    const s = seqSeries({ rows, times, ids, stackRetx: (k) => k === 5 }, 0, { addr: A, port: 5000 });
    expect(s.segments.map((g) => g.retx)).toEqual([false, false, true, true]);
  });

  it('the other direction, and the extent of what is in view', () => {
    const s = seqSeries({ rows, times, ids, stackRetx: () => false }, 0, { addr: B, port: 80 });
    expect(s.segments).toEqual([]);
    expect(s.acks.map((p) => p.t)).toEqual([2000, 3000, 4000, 5000, 8000]);
    const fwd = seqSeries({ rows, times, ids, stackRetx: () => false }, 0, { addr: A, port: 5000 });
    // 4500..5500: segment 201..301 and the stairs still at 1 / 1001 from before the window
    expect(seqExtent(fwd, 4500, 5500)).toEqual({ lo: 1, hi: 1001, windowClipped: false });
    // 3500..4500: one segment 101..201 above the ACK at 1; the window at 1001 is 5 spans up
    expect(seqExtent(fwd, 3500, 4500)).toEqual({ lo: 1, hi: 201, windowClipped: true });
    expect(seqExtent(fwd, 20_000, 30_000)).toEqual({ lo: 301, hi: 1301, windowClipped: false });
  });

  it('streams, their data direction, and the default choice', () => {
    const more = [...rows, row(B, PSH_ACK, 1, 301, 50, {}, 1000, 1)];
    const streams = tcpStreams(more);
    expect(streams.map((s) => [s.stream, s.a.addr, s.bytesAB, s.bytesBA])).toEqual([
      [0, A, 400, 0],
      [1, B, 50, 0],
    ]);
    expect(dataDirection(streams[0]!)).toBe('a');
    const of = () => streams;
    expect(defaultChoice(of, 0, null)).toEqual({ link: 0, stream: 0, from: 'a' });
    expect(defaultChoice(of, 0, { link: 0, row: more[10]! })).toEqual({ link: 0, stream: 1, from: 'a' });
    // A pure ACK selected: its stream, in the direction of the data.
    expect(defaultChoice(of, 0, { link: 0, row: more[6]! })).toEqual({ link: 0, stream: 0, from: 'a' });
    expect(defaultChoice(() => [], 0, null)).toBeNull();
  });

  it('nfc-bridge-1080 on the NFC link: the request, its RTO retransmissions, the ACK reaching 1025', async () => {
    const run = await shippedRun('nfc-bridge-1080');
    const nfc = run.result.world.links.findIndex((l) => l.name === 'nfc');
    const choice = defaultChoice((l) => streamsOf(run, l), nfc, null)!;
    expect(choice).toEqual({ link: nfc, stream: 0, from: 'a' });
    const g = graphModel(run, choice)!;
    expect(g.senderName).toBe('appliance');
    // The first copy died in the busy module but a sniffer beside the appliance saw it.
    expect(g.seq.segments.map((s) => [s.seq, s.end, s.retx])).toEqual([
      [1, 1025, false],
      [1, 1025, true],
      [1, 1025, true],
    ]);
    expect(Math.max(...g.seq.acks.map((p) => p.v))).toBeGreaterThanOrEqual(1025);
  });

  it('with the future hidden: the data ends at the horizon, the stairs are held to it, the axis fits only the past', () => {
    const s = seqSeries({ rows, times, ids, stackRetx: () => false }, 0, { addr: A, port: 5000 });
    const v = seqInView(s, 0, 9000, 4500);
    expect(v.segments.map((g) => g.t)).toEqual([3000, 4000]);
    expect(v.acks).toEqual([
      { t: 1000, v: 1 },
      { t: 4500, v: 1 },
    ]);
    expect(v.windows).toEqual([
      { t: 1000, v: 1001 },
      { t: 4500, v: 1001 },
    ]);
    // the segment 201..301 at 5000 and the ACK of 301 at 9000 are not counted
    expect(v.extent).toEqual({ lo: 1, hi: 201, windowClipped: true });
    expect(seqInView(s, 0, 9000, Infinity).extent).toEqual({ lo: 1, hi: 301, windowClipped: true });
    // a horizon after the window changes nothing
    expect(seqInView(s, 2000, 6000, 7000)).toEqual(seqInView(s, 2000, 6000, Infinity));
  });

  it('ethernet-bulk-lossy, the future hidden half a second in: nothing after it, the axis top from before it', async () => {
    const run = await shippedRun('ethernet-bulk-lossy');
    const g = graphModel(run, { link: 0, stream: 0, from: 'a' })!.seq;
    const h = 500_000;
    const t0 = g.t0 - 1000;
    const t1 = g.t1 + 1000;
    const v = seqInView(g, t0, t1, h);
    expect(v.segments.length).toBeGreaterThan(50);
    expect(v.segments.every((s) => s.t <= h)).toBe(true);
    expect(v.segments.length).toBe(g.segments.filter((s) => s.t <= h).length);
    for (const line of [v.acks, v.windows]) {
      expect(line.every((p) => p.t <= h)).toBe(true);
      expect(line.at(-1)!.t).toBe(h);
    }
    // The axis: from the data, ACKs and windows at or before h, far below what comes later.
    const past = [
      ...g.segments.filter((s) => s.t <= h).map((s) => s.end),
      ...g.acks.filter((p) => p.t <= h).map((p) => p.v),
      ...g.windows.filter((p) => p.t <= h).map((p) => p.v),
    ];
    expect(v.extent.hi).toBeLessThanOrEqual(Math.max(...past));
    const later = Math.max(...g.segments.filter((s) => s.t > h).map((s) => s.end));
    expect(v.extent.hi).toBeLessThan(later / 2);
    expect(seqInView(g, t0, t1, Infinity).extent.hi).toBeGreaterThanOrEqual(later);
    // A hidden segment is not under the pointer either (no tooltip, no click selects it).
    const next = g.segments.find((s) => s.t > h)!;
    const x = d3
      .scaleLinear()
      .domain([next.t - 1000, next.t + 1000])
      .range([0, 500]);
    const y = d3
      .scaleLinear()
      .domain([next.seq - 1000, next.end + 1000])
      .range([100, 0]);
    const py = y((next.seq + next.end) / 2);
    expect(segmentAt(g, x, y, x(next.t), py, Infinity)?.frameId).toBe(next.frameId);
    expect(segmentAt(g, x, y, x(next.t), py, h)).toBeNull();
  });
});
