// The TCP analysis flag by flag, on hand-built segments, with the values Wireshark's
// algorithm gives (worked out from packet-tcp.c, independently of this code; the oracle
// test checks the same against tshark itself).
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from './index.ts';
import * as B from './testing/build.ts';
import { CaptureBuilder, TcpConn } from './testing/capture_builder.ts';

const WS7 = B.options(B.opt.mss(1460), B.opt.nop(), B.opt.ws(7), B.opt.sackPerm());

function conn(o: { cport?: number; sport?: number; ciss?: number; siss?: number } = {}): [CaptureBuilder, TcpConn] {
  const cap = new CaptureBuilder();
  return [
    cap,
    new TcpConn(cap, {
      cport: o.cport ?? 49153,
      sport: o.sport ?? 7891,
      ...(o.ciss !== undefined ? { ciss: o.ciss } : {}),
      ...(o.siss !== undefined ? { siss: o.siss } : {}),
    }),
  ];
}

describe('handshake and relative numbers', () => {
  const [cap, k] = conn();
  k.handshake({ cOpts: WS7, sOpts: WS7 });
  const rows = analyzeCapture(cap.frames);

  it('shows relative sequence numbers from the SYNs', () => {
    expect(rows[0]!.info).toBe('49153 \u2192 7891 [SYN] Seq=0 Win=8192 Len=0 MSS=1460 WS=128 SACK_PERM');
    expect(rows[1]!.info).toBe('7891 \u2192 49153 [SYN, ACK] Seq=0 Ack=1 Win=8192 Len=0 MSS=1460 WS=128 SACK_PERM');
    expect(rows[0]!.tcp).toMatchObject({ stream: 0, seqRel: 0, nextSeqRel: 1, len: 0 });
  });

  it('scales the window once both SYNs carried the option (RFC 7323 2.2)', () => {
    expect(rows[2]!.info).toBe('49153 \u2192 7891 [ACK] Seq=1 Ack=1 Win=1048576 Len=0');
    expect(rows[2]!.tcp).toMatchObject({ winValue: 8192, win: 8192 * 128 });
  });

  it('finds the segment each ACK acknowledges, and the RTT', () => {
    expect(rows[1]!.tcp).toMatchObject({ acksFrame: 1, ackRttS: 0.001 });
    expect(rows[2]!.tcp).toMatchObject({ acksFrame: 2, ackRttS: 0.001 });
    expect(rows.every((r) => r.flags.length === 0)).toBe(true);
  });
});

describe('bytes in flight', () => {
  it('counts unacknowledged data of the sender', () => {
    const [cap, k] = conn();
    k.handshake();
    k.c({ seq: 1, ack: 1, f: 'A', len: 1000 });
    k.c({ seq: 1001, ack: 1, f: 'A', len: 1000 });
    k.s({ seq: 1, ack: 1001, f: 'A' });
    k.c({ seq: 2001, ack: 1, f: 'A', len: 500 });
    const rows = analyzeCapture(cap.frames);
    expect(rows.slice(3).map((r) => r.tcp!.bytesInFlight)).toEqual([1000, 2000, undefined, 1500]);
    expect(rows[5]!.tcp!.acksFrame).toBe(4);
  });
});

describe('loss, duplicate ACKs and retransmissions', () => {
  const [cap, k] = conn({ sport: 9000 });
  k.handshake(); // iRTT 2 ms
  k.c({ seq: 1, ack: 1, f: 'A', len: 100 }); // 4
  k.c({ seq: 101, ack: 1, f: 'A', len: 100, lost: true });
  k.c({ seq: 201, ack: 1, f: 'A', len: 100 }); // 5
  k.s({ seq: 1, ack: 101, f: 'A' }); // 6
  k.s({ seq: 1, ack: 101, f: 'A' }); // 7
  k.s({ seq: 1, ack: 101, f: 'A' }); // 8
  k.c({ seq: 101, ack: 1, f: 'A', len: 100, dt: 5000 }); // 9: fast retransmission
  k.s({ seq: 1, ack: 301, f: 'A' }); // 10
  k.c({ seq: 301, ack: 1, f: 'A', len: 100 }); // 11
  k.c({ seq: 301, ack: 1, f: 'A', len: 100, dt: 300_000 }); // 12: after an RTO
  k.s({ seq: 1, ack: 401, f: 'A' }); // 13
  k.c({ seq: 301, ack: 1, f: 'A', len: 100, dt: 50_000 }); // 14: already acknowledged
  const rows = analyzeCapture(cap.frames);
  const row = (n: number) => rows[n - 1]!;

  it('notices a segment lost before the capture point', () => {
    expect(row(5).info).toBe('[TCP Previous segment not captured] 49153 \u2192 9000 [ACK] Seq=201 Ack=1 Win=8192 Len=100');
    expect(row(5).flags).toEqual(['tcp.analysis.lost_segment']);
    expect(row(5).tcp!.bytesInFlight).toBeUndefined(); // not counted until the peer ACKs
  });

  it('numbers duplicate ACKs after the first ACK of that number', () => {
    expect(row(6).flags).toEqual([]);
    expect(row(7).info).toBe('[TCP Dup ACK 6#1] 9000 \u2192 49153 [ACK] Seq=1 Ack=101 Win=8192 Len=0');
    expect(row(8).info.startsWith('[TCP Dup ACK 6#2] ')).toBe(true);
    expect(row(8).tcp).toMatchObject({ dupAckNum: 2, dupAckFrame: 6 });
    expect(row(8).flags).toEqual(['tcp.analysis.duplicate_ack']);
  });

  it('calls a resend of the duplicated ACK number within 20 ms a fast retransmission', () => {
    expect(row(9).info.startsWith('[TCP Fast Retransmission] ')).toBe(true);
    expect([...row(9).flags].sort()).toEqual(['tcp.analysis.fast_retransmission', 'tcp.analysis.retransmission']);
    expect(row(9).colour.name).toBe('Bad TCP');
  });

  it('measures the RTO of a retransmission from the oldest unacknowledged segment', () => {
    expect(row(12).info).toBe('[TCP Retransmission] 49153 \u2192 9000 [ACK] Seq=301 Ack=1 Win=8192 Len=100');
    expect(row(12).tcp).toMatchObject({ rtoFrame: 11, rtoS: 0.3 });
  });

  it('calls a resend of acknowledged data spurious', () => {
    expect(row(14).info.startsWith('[TCP Spurious Retransmission] ')).toBe(true);
    expect([...row(14).flags].sort()).toEqual(['tcp.analysis.retransmission', 'tcp.analysis.spurious_retransmission']);
  });
});

describe('out-of-order against retransmission: the iRTT threshold', () => {
  function late(gapUs: number, handshake: boolean): string {
    const [cap, k] = conn();
    if (handshake) k.handshake({ rtt: 10_000 }); // iRTT 10 ms
    k.c({ seq: 201, ack: 1, f: 'A', len: 100 });
    k.c({ seq: 101, ack: 1, f: 'A', len: 100, dt: gapUs });
    return analyzeCapture(cap.frames).at(-1)!.info.split(']')[0]!;
  }
  it('uses 3 ms when the handshake was not seen', () => {
    expect(late(2500, false)).toBe('[TCP Out-Of-Order');
    expect(late(3500, false)).toBe('[TCP Retransmission');
  });
  it('uses the iRTT when it is known', () => {
    expect(late(8000, true)).toBe('[TCP Out-Of-Order');
    expect(late(12000, true)).toBe('[TCP Retransmission');
  });
});

describe('windows', () => {
  const [cap, k] = conn({ sport: 9000 });
  k.handshake({ sWin: 1000 });
  k.c({ seq: 1, ack: 1, f: 'A', len: 600 }); // 4
  k.c({ seq: 601, ack: 1, f: 'A', len: 400 }); // 5: up to the 1000-byte window
  k.s({ seq: 1, ack: 1001, f: 'A', win: 0 }); // 6
  k.c({ seq: 1001, ack: 1, f: 'A', len: 1, dt: 200_000 }); // 7
  k.s({ seq: 1, ack: 1001, f: 'A', win: 0 }); // 8
  k.s({ seq: 1, ack: 1001, f: 'A', win: 3000 }); // 9
  const rows = analyzeCapture(cap.frames);
  const info = (n: number) => rows[n - 1]!.info;

  it('flags a segment that fills the advertised window', () => {
    expect(info(5).startsWith('[TCP Window Full] ')).toBe(true);
    expect(info(4).startsWith('[')).toBe(false);
  });
  it('flags a zero window, the probe, its ACK and the update that reopens it', () => {
    expect(info(6).startsWith('[TCP ZeroWindow] ')).toBe(true);
    expect(info(7).startsWith('[TCP ZeroWindowProbe] ')).toBe(true);
    expect(info(8).startsWith('[TCP ZeroWindowProbeAck] [TCP ZeroWindow] ')).toBe(true);
    expect(info(9)).toBe('[TCP Window Update] 9000 \u2192 49153 [ACK] Seq=1 Ack=1001 Win=3000 Len=0');
  });
  it('does not colour a window update as bad TCP', () => {
    expect(rows[8]!.colour.name).toBe('TCP');
    expect(rows[7]!.colour.name).toBe('Bad TCP');
  });
});

describe('keep-alives, resets, reused ports', () => {
  const [cap, k] = conn({ sport: 7 });
  k.handshake();
  k.c({ seq: 1, ack: 1, f: 'PA', len: 10 }); // 4: ECHO Request
  k.s({ seq: 1, ack: 11, f: 'A' }); // 5
  k.c({ seq: 10, ack: 1, f: 'A', dt: 7_200_000 }); // 6: keep-alive
  k.s({ seq: 1, ack: 11, f: 'A' }); // 7
  k.s({ seq: 1, ack: 11, f: 'RA' }); // 8
  const k2 = new TcpConn(cap, { cport: 49153, sport: 7, ciss: 123_456, siss: 654_321 });
  k2.c({ seq: 0, f: 'S' }); // 9
  const rows = analyzeCapture(cap.frames);

  it('shows data on port 7 as ECHO', () => {
    expect(rows[3]).toMatchObject({ protocol: 'ECHO', info: 'Request' });
  });
  it('flags a keep-alive and its ACK, without the bad TCP colour', () => {
    expect(rows[5]!.info).toBe('[TCP Keep-Alive] 49153 \u2192 7 [ACK] Seq=10 Ack=1 Win=8192 Len=0');
    expect(rows[6]!.info.startsWith('[TCP Keep-Alive ACK] ')).toBe(true);
    expect(rows[5]!.colour.name).toBe('TCP');
  });
  it('colours a reset', () => {
    expect(rows[7]!.colour).toEqual({ name: 'TCP RST', fg: '#fffc9c', bg: '#a40000' });
  });
  it('starts a new stream when a SYN reuses the ports with a new ISN', () => {
    expect(rows[8]!.info.startsWith('[TCP Port numbers reused] ')).toBe(true);
    expect(rows[8]!.tcp!.stream).toBe(1);
    expect(rows[8]!.flags).toEqual(['tcp.analysis.reused_ports']);
  });
});

describe('ACKed unseen segment', () => {
  it('is flagged once, not on each later ACK', () => {
    const [cap, k] = conn();
    k.handshake();
    k.c({ seq: 1, ack: 1, f: 'A', len: 100 });
    k.c({ seq: 101, ack: 1, f: 'A', len: 100, lost: true });
    k.s({ seq: 1, ack: 201, f: 'A' });
    k.s({ seq: 1, ack: 201, f: 'A' });
    const rows = analyzeCapture(cap.frames);
    expect(rows[4]!.info.startsWith('[TCP ACKed unseen segment] ')).toBe(true);
    expect(rows[5]!.flags).toEqual(['tcp.analysis.duplicate_ack']);
  });
});

describe('sequence numbers wrapping past 2^32', () => {
  it('stays relative and in order', () => {
    const [cap, k] = conn({ ciss: 0xffffff00, siss: 0xfffffff0 });
    k.handshake();
    k.c({ seq: 1, ack: 1, f: 'A', len: 300 });
    k.c({ seq: 301, ack: 1, f: 'A', len: 300 });
    k.s({ seq: 1, ack: 601, f: 'A' });
    const rows = analyzeCapture(cap.frames);
    expect(rows.map((r) => r.flags.length)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(rows[4]!.tcp).toMatchObject({ seqRel: 301, nextSeqRel: 601 });
    expect(rows[5]!.tcp).toMatchObject({ ackRel: 601, acksFrame: 5 });
  });
});

describe('the second pass', () => {
  it('re-dissects with the final state, as tshark -2 and Wireshark do', () => {
    // A reconnection with the same client ISN stays in the conversation; its SYN/ACK
    // brings a new server ISN, which moves the base and flags "ports reused". In the
    // second pass the first SYN/ACK no longer matches the base either, so it is flagged
    // too. The same ISN makes the second SYN a retransmission, and the new server ISN
    // lies past what was seen (all as tshark 4.0 prints it).
    const [cap, k] = conn({ ciss: 1000, siss: 5000 });
    k.handshake();
    k.c({ seq: 1, ack: 1, f: 'RA' });
    const k2 = new TcpConn(cap, { cport: 49153, sport: 7891, ciss: 1000, siss: 9000 });
    k2.handshake();
    const rows = analyzeCapture(cap.frames);
    expect(rows[1]!.info).toBe('[TCP Port numbers reused] 7891 \u2192 49153 [SYN, ACK] Seq=0 Ack=1 Win=8192 Len=0');
    expect(rows[4]!.info).toBe('[TCP Retransmission] 49153 \u2192 7891 [SYN] Seq=0 Win=8192 Len=0');
    expect(rows[5]!.info).toBe('[TCP Previous segment not captured] [TCP Port numbers reused] 7891 \u2192 49153 [SYN, ACK] Seq=0 Ack=1 Win=8192 Len=0');
  });
});
