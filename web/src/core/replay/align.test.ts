// The alignment of a seed's packet list with ours (align.ts), on rows built by hand: a row
// that matches, one whose field differs, one the run lacks, one the seed lacks, and the
// sequence test the tick placements are counted with.
import { describe, expect, it } from 'vitest';
import { alignRows, sameSequence, segmentOf, type AlignRow } from './align.ts';

const A = '192.168.1.102';
const B = '192.168.1.202';
let n = 0;
function tcp(from: string, to: string, info: string, length: number, time = 0): AlignRow {
  return { no: ++n, time, source: from, destination: to, protocol: 'TCP', length, info };
}
const syn = (t = 0) => tcp(A, B, '49153 → 7891 [SYN] Seq=0 Win=8096 Len=0 MSS=1024', 58, t);
const synAck = () => tcp(B, A, '7891 → 49153 [SYN, ACK] Seq=0 Ack=1 Win=8096 Len=0 MSS=1024', 60);
const ack = (length = 54) => tcp(A, B, '49153 → 7891 [ACK] Seq=1 Ack=1 Win=8096 Len=0', length);
const data = (len: number) => tcp(A, B, `49153 → 7891 [PSH, ACK] Seq=1 Ack=1 Win=8096 Len=${len}`, 54 + len);
const reply = () => tcp(B, A, '7891 → 49153 [PSH, ACK] Seq=1 Ack=1025 Win=8096 Len=1024', 1078);
const resent = () => tcp(B, A, '[TCP Retransmission] 7891 → 49153 [PSH, ACK] Seq=1 Ack=1025 Win=8096 Len=1024', 1078);

describe('a seed packet list aligned with ours', () => {
  it("reads the compared fields from the columns, Wireshark's words around them ignored", () => {
    expect(segmentOf(resent())).toEqual({ direction: `${B} → ${A}`, flags: 'PSH, ACK', seq: 1, ack: 1025, len: 1024, length: 1078 });
    expect(segmentOf(syn())).toMatchObject({ flags: 'SYN', seq: 0, ack: null, len: 0 });
    const ask = {
      no: 1,
      time: 0,
      source: 'HS-NLB-PhysServe...',
      destination: 'Broadcast',
      protocol: 'ARP',
      length: 42,
      info: 'who has 192.168.1.202? Tell 192.168.1.102',
    };
    expect(segmentOf(ask)).toMatchObject({ direction: `${A} asks`, flags: 'who-has', length: 42 });
  });

  it('marks a match, a differing field, a missing row and an extra one, with the counts', () => {
    const seed = [syn(0), synAck(), ack(), data(1024), reply()];
    // ours: the same SYN at another time (time is not asked), no SYN-ACK, an ACK of another
    // frame length, the data, the reply and a retransmission of it the seed has not
    const ours = [syn(0.25), ack(60), data(1024), reply(), resent()];
    const a = alignRows(seed, ours);
    expect(a.rows.map((r) => [r.mark, r.differs])).toEqual([
      ['matched', []],
      ['missing', []],
      ['differing', ['length']],
      ['matched', []],
      ['matched', []],
      ['extra', []],
    ]);
    expect(a.rows[1]!.seed!.flags).toBe('SYN, ACK');
    expect(a.rows[5]!.ours!.no).toBe(ours[4]!.no);
    expect([a.matched, a.differing, a.missing, a.extra, a.seedRows]).toEqual([3, 1, 1, 1, 5]);
  });

  it('pairs a row only with one going the same way with the same flags', () => {
    const a = alignRows([data(1024)], [reply()]);
    expect(a.rows.map((r) => r.mark)).toEqual(['missing', 'extra']);
  });

  it('prefers the pair that agrees most: a retransmission is extra beside the matched original', () => {
    const seed = [data(1024)];
    const a = alignRows(seed, [data(512), data(1024)]);
    expect(a.rows.map((r) => [r.mark, r.ours?.len])).toEqual([
      ['extra', 512],
      ['matched', 1024],
    ]);
  });

  it('a capture reproduces the sequence when direction, flags and Len agree in order', () => {
    const seed = [syn(), synAck(), ack(), data(1024)];
    expect(sameSequence(seed, [syn(1), synAck(), ack(60), data(1024)])).toBe(true); // Length and time not asked
    expect(sameSequence(seed, [syn(), synAck(), ack(), data(512)])).toBe(false);
    expect(sameSequence(seed, [syn(), synAck(), ack(), data(1024), reply()])).toBe(false);
    expect(sameSequence(seed, [synAck(), syn(), ack(), data(1024)])).toBe(false);
  });
});
