// Named captures that exercise every part of the packet list: each TCP analysis flag, the
// ICMP and UDP forms, the ports with application dissectors, fragments, and malformed
// frames. The oracle test compares our rows for each with tshark's; unit tests use some.
import * as B from './build.ts';
import { CaptureBuilder, TcpConn } from './capture_builder.ts';
import type { CapturedFrame } from '../types.ts';

const A = '10.0.0.1';
const S = '10.0.0.2';
const synOpts = (ws: number, ts = 0): Uint8Array => B.options(B.opt.mss(1460), B.opt.nop(), B.opt.ws(ws), B.opt.sackPerm(), ...(ts ? [B.opt.ts(ts, 0)] : []));

/** Handshake with options, data both ways, an orderly close (port 7891, the paper's). */
export function handshakeDataClose(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 7891 });
  k.handshake({ cOpts: synOpts(7, 1000), sOpts: B.options(B.opt.mss(536), B.opt.nop(), B.opt.ws(2), B.opt.sackPerm(), B.opt.ts(5000, 1000)) });
  k.c({ seq: 1, ack: 1, f: 'PA', len: 1024 });
  k.s({ seq: 1, ack: 1025, f: 'A', win: 2000 });
  k.s({ seq: 1, ack: 1025, f: 'PA', len: 100, win: 2000 });
  k.c({ seq: 1025, ack: 101, f: 'A', win: 64 });
  k.c({ seq: 1025, ack: 101, f: 'FA', win: 64 });
  k.s({ seq: 101, ack: 1026, f: 'FA', win: 2000 });
  k.c({ seq: 1026, ack: 102, f: 'A', win: 64 });
  return cap.frames;
}

/** A segment lost before the capture point, duplicate ACKs, then a retransmission after
 *  the RTO; then three duplicate ACKs with SACK and a fast retransmission. */
export function lossAndRetransmissions(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 9000 });
  k.handshake({ cOpts: synOpts(0), sOpts: synOpts(0) });
  k.c({ seq: 1, ack: 1, f: 'A', len: 500 });
  k.c({ seq: 501, ack: 1, f: 'A', len: 500, lost: true });
  k.c({ seq: 1001, ack: 1, f: 'PA', len: 500 });
  k.s({ seq: 1, ack: 501, f: 'A' });
  k.s({ seq: 1, ack: 501, f: 'A', opts: B.options(B.opt.nop(), B.opt.nop(), B.opt.sack([[k.ciss + 1001, k.ciss + 1501]])) });
  k.c({ seq: 501, ack: 1, f: 'A', len: 500, dt: 1_000_000 }); // RTO
  k.s({ seq: 1, ack: 1501, f: 'A' });
  // fast retransmission
  for (let i = 0; i < 5; i++) k.c({ seq: 1501 + i * 500, ack: 1, f: 'A', len: 500, dt: 100, lost: i === 1 });
  k.s({ seq: 1, ack: 2001, f: 'A' });
  for (let i = 0; i < 3; i++) {
    k.s({ seq: 1, ack: 2001, f: 'A', dt: 200, opts: B.options(B.opt.nop(), B.opt.nop(), B.opt.sack([[k.ciss + 2501, k.ciss + 3001 + i * 500]])) });
  }
  k.c({ seq: 2001, ack: 1, f: 'A', len: 500, dt: 300 });
  k.s({ seq: 1, ack: 4001, f: 'A' });
  return cap.frames;
}

/** A retransmission of acknowledged data (spurious), and segments reordered in the network
 *  (out-of-order), before and after the iRTT is known. */
export function spuriousAndOutOfOrder(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 7891 });
  k.c({ seq: 1, ack: 1, f: 'PA', len: 100 }); // capture starts mid-connection: no iRTT
  k.c({ seq: 201, ack: 1, f: 'PA', len: 100, dt: 500 });
  k.c({ seq: 101, ack: 1, f: 'PA', len: 100, dt: 500 }); // within 3 ms: out-of-order
  k.s({ seq: 1, ack: 301, f: 'A' });
  k.c({ seq: 201, ack: 1, f: 'PA', len: 100, dt: 400_000 }); // acked already: spurious
  k.c({ seq: 401, ack: 1, f: 'PA', len: 100, dt: 1000 });
  k.c({ seq: 301, ack: 1, f: 'PA', len: 100, dt: 5000 }); // 5 ms later: retransmission
  k.s({ seq: 1, ack: 501, f: 'A' });
  return cap.frames;
}

/** A zero window, probes and their ACKs, a window update; a window filled exactly. */
export function zeroWindowAndWindowFull(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 9000 });
  k.handshake({ sWin: 1000 });
  k.c({ seq: 1, ack: 1, f: 'PA', len: 600 });
  k.c({ seq: 601, ack: 1, f: 'PA', len: 400 }); // fills the 1000-byte window
  k.s({ seq: 1, ack: 1001, f: 'A', win: 0 });
  k.c({ seq: 1001, ack: 1, f: 'A', len: 1, dt: 200_000 }); // probe
  k.s({ seq: 1, ack: 1001, f: 'A', win: 0 });
  k.c({ seq: 1001, ack: 1, f: 'A', len: 1, dt: 400_000 }); // probe again
  k.s({ seq: 1, ack: 1001, f: 'A', win: 0 });
  k.s({ seq: 1, ack: 1001, f: 'A', win: 4000, dt: 100_000 }); // window update
  k.c({ seq: 1001, ack: 1, f: 'PA', len: 100 });
  k.s({ seq: 1, ack: 1101, f: 'A', win: 4000 });
  return cap.frames;
}

/** Keep-alives with and without a byte, and their ACKs; a SYN refused with RST; a reset
 *  in the middle of a connection; a new connection on the same ports (reused ports). */
export function keepAliveResetReuse(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 7 });
  k.handshake();
  k.c({ seq: 1, ack: 1, f: 'PA', len: 20 });
  k.s({ seq: 1, ack: 21, f: 'PA', len: 20 });
  k.c({ seq: 21, ack: 21, f: 'A' });
  k.c({ seq: 20, ack: 21, f: 'A', dt: 7_200_000 }); // keep-alive
  k.s({ seq: 21, ack: 21, f: 'A' }); // its ACK
  k.c({ seq: 20, ack: 21, f: 'A', len: 1, dt: 75_000_000 }); // keep-alive with a byte
  k.s({ seq: 21, ack: 21, f: 'A' });
  k.s({ seq: 21, ack: 21, f: 'RA', dt: 1000 });
  const k2 = new TcpConn(cap, { cport: 49153, sport: 7, ciss: 7_000_000, siss: 9_000_000 });
  k2.handshake(); // same ports, new ISNs
  k2.c({ seq: 1, ack: 1, f: 'FA' });
  k2.s({ seq: 1, ack: 2, f: 'FA' });
  k2.c({ seq: 2, ack: 2, f: 'A' });
  const closed = new TcpConn(cap, { cport: 49154, sport: 9 });
  closed.c({ seq: 0, f: 'S', opts: B.options(B.opt.mss(1460)) });
  closed.s({ seq: 0, ack: 1, f: 'RA', win: 0 });
  return cap.frames;
}

/** An ACK for data never seen, then duplicate ACKs of it. */
export function ackedUnseen(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 9000 });
  k.handshake();
  k.c({ seq: 1, ack: 1, f: 'A', len: 100 });
  k.c({ seq: 101, ack: 1, f: 'A', len: 100, lost: true });
  k.s({ seq: 1, ack: 201, f: 'A' });
  k.s({ seq: 1, ack: 201, f: 'A' });
  k.c({ seq: 201, ack: 1, f: 'A', len: 100 });
  k.s({ seq: 1, ack: 301, f: 'A' });
  return cap.frames;
}

/** ICMP echo with replies, a missing reply, a broadcast ping; errors quoting UDP and TCP. */
export function icmpForms(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  cap.add(B.echo(A, S, false, 0x1234, 1, 56, { ttl: 64 }));
  cap.add(B.echo(S, A, true, 0x1234, 1, 56, { ttl: 255 }));
  cap.add(B.echo(A, S, false, 0x1234, 2, 56), 1_000_000);
  cap.add(B.echo(A, S, false, 0x1234, 3, 56), 1_000_000);
  cap.add(B.echo(S, A, true, 0x1234, 3, 56));
  cap.add(B.echo(S, A, true, 0x1234, 3, 56)); // a duplicate reply
  cap.add(B.echo(A, '255.255.255.255', false, 0x99, 1, 8));
  const u = B.udp({ src: A, dst: S, sport: 49200, dport: 9999, payload: 20 });
  cap.add(u);
  cap.add(B.icmpError(S, A, 3, 3, u));
  const t = B.tcp({ src: A, dst: S, sport: 49153, dport: 7891, seq: 1000, ack: 2000, flags: 'PA', payload: 600 });
  cap.add(B.icmpError('10.0.0.9', A, 3, 4, t));
  cap.add(B.icmpError('10.0.0.9', A, 11, 0, t, true));
  cap.add(B.icmpError('10.0.0.9', A, 11, 1, u));
  cap.add(B.icmp({ src: A, dst: S, type: 13, rest: 0x00070001, payload: 12 }));
  cap.add(B.icmp({ src: S, dst: A, type: 5, code: 1, rest: 0x0a000001, payload: u.subarray(0, 28) }));
  cap.add(B.icmp({ src: S, dst: A, type: 12, rest: 0x14000000, payload: u.subarray(0, 28) }));
  cap.add(B.icmp({ src: S, dst: A, type: 3, code: 13, payload: u.subarray(0, 28) }));
  cap.add(B.echo(A, S, false, 0x1234, 1, 56, { ttl: 3 })); // TTL low, but ICMP comes first
  cap.add(B.udp({ src: A, dst: S, sport: 49200, dport: 33434, payload: 12, ip: { ttl: 1 } })); // TTL low
  return cap.frames;
}

/** UDP to echo, discard and the project's other ports; TCP data on 7, 9 and 9000. */
export function portsAndServices(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  for (const port of [7, 9, 9000, 7891, 49153]) {
    cap.add(B.udp({ src: A, dst: S, sport: 49200, dport: port, payload: 12 }));
    cap.add(B.udp({ src: S, dst: A, sport: port, dport: 49200, payload: 12 }));
  }
  cap.add(B.udp({ src: A, dst: S, sport: 49200, dport: 7, payload: 0 }));
  for (const port of [7, 9, 9000]) {
    const k = new TcpConn(cap, { cport: 49160 + port, sport: port });
    k.handshake();
    k.c({ seq: 1, ack: 1, f: 'PA', len: 64 });
    k.s({ seq: 1, ack: 65, f: 'PA', len: port === 7 ? 64 : 0 });
    k.c({ seq: 65, ack: port === 7 ? 65 : 1, f: 'A' });
  }
  return cap.frames;
}

function fragments(dgram: Uint8Array, size: number, id: number, order?: number[]): Uint8Array[] {
  const hlen = (dgram[0]! & 0x0f) * 4;
  const src = `${dgram[12]}.${dgram[13]}.${dgram[14]}.${dgram[15]}`;
  const dst = `${dgram[16]}.${dgram[17]}.${dgram[18]}.${dgram[19]}`;
  const payload = dgram.subarray(hlen);
  const out: Uint8Array[] = [];
  for (let off = 0; off < payload.length; off += size) {
    out.push(B.ipv4({ src, dst, proto: dgram[9]!, payload: payload.subarray(off, off + size), id, fragOffset: off, mf: off + size < payload.length }));
  }
  return (order ?? out.map((_, i) => i)).map((i) => out[i]!);
}

/** IPv4 fragments: UDP in order, an ICMP echo and its reply out of order, a TCP segment,
 *  and a datagram whose last fragment never comes. */
export function ipFragments(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  for (const f of fragments(B.udp({ src: A, dst: S, sport: 49200, dport: 7, payload: 300 }), 128, 0x100)) cap.add(f);
  for (const f of fragments(B.echo(A, S, false, 0x77, 1, 300), 128, 0x101)) cap.add(f);
  for (const f of fragments(B.echo(S, A, true, 0x77, 1, 300), 128, 0x102, [2, 0, 1])) cap.add(f);
  for (const f of fragments(B.tcp({ src: A, dst: S, sport: 49153, dport: 7891, seq: 1, ack: 1, flags: 'PA', payload: 300 }), 256, 0x103)) cap.add(f);
  for (const f of fragments(B.udp({ src: A, dst: S, sport: 49200, dport: 9000, payload: 300 }), 128, 0x104).slice(0, 2)) cap.add(f);
  return cap.frames;
}

/** Frames cut short or with bad fields, as a fuzzer or a broken link would deliver them. */
export function malformedFrames(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const syn = B.tcp({ src: A, dst: S, sport: 40000, dport: 7891, seq: 1, ack: 0, flags: 'S', options: B.options(B.opt.mss(1460)) });
  const udp = B.udp({ src: A, dst: S, sport: 1234, dport: 5678, payload: 20 });
  const echo = B.echo(A, S, false, 1, 1, 8);
  for (const n of [0, 1, 7, 8, 12, 19, 20, 21, 23, 27, 28, 33, 39]) cap.add(syn.slice(0, n));
  for (const n of [22, 24, 27, 28]) cap.add(udp.slice(0, n));
  for (const n of [21, 24, 27, 28]) cap.add(echo.slice(0, n));
  const bad = (b: Uint8Array, i: number, v: number): Uint8Array => {
    const c = b.slice();
    c[i] = v;
    return c;
  };
  cap.add(bad(syn, 0, 0x44)); // header length 16
  cap.add(bad(syn, 0, 0x55)); // version 5
  cap.add(B.udp({ src: A, dst: S, sport: 1234, dport: 5678, payload: 20, ip: { totalLength: 12 } }));
  cap.add(B.udp({ src: A, dst: S, sport: 1234, dport: 5678, payload: 20, ip: { totalLength: 100 } }));
  cap.add(B.ipv4({ src: A, dst: S, proto: 6, payload: new Uint8Array(0) }));
  cap.add(B.ipv4({ src: A, dst: S, proto: 99, payload: new Uint8Array(10) }));
  const seg = B.tcpSegment({ src: A, dst: S, sport: 40001, dport: 7891, seq: 1, ack: 0, flags: 'S' });
  seg[12] = 0x40; // data offset 4 words
  cap.add(B.ipv4({ src: A, dst: S, proto: 6, payload: seg }));
  cap.add(B.tcp({ src: A, dst: S, sport: 40002, dport: 7891, seq: 1, ack: 0, flags: 'S', options: new Uint8Array([2, 3, 5, 0xb4]) }));
  cap.add(B.tcp({ src: A, dst: S, sport: 40003, dport: 7891, seq: 1, ack: 0, flags: 'S', options: new Uint8Array([1, 1, 8, 10]) }));
  cap.add(B.tcp({ src: A, dst: S, sport: 40004, dport: 7891, seq: 1, ack: 0, flags: 'S', options: B.options(B.opt.ws(15), [4, 3, 0]) }));
  const u = B.udpDatagram({ src: A, dst: S, sport: 1234, dport: 5678, payload: 20 });
  cap.add(B.ipv4({ src: A, dst: S, proto: 17, payload: bad(bad(u, 4, 0), 5, 60) })); // UDP length 60
  cap.add(B.ipv4({ src: A, dst: S, proto: 17, payload: bad(bad(u, 4, 0), 5, 4) })); // UDP length 4
  // A UDP length field promising more than there is: the port's dissector gets the bytes
  // there are; with none there, an exception.
  const echoUdp = B.udp({ src: A, dst: S, sport: 1234, dport: 7, payload: 20 });
  for (const n of [28, 29, 40]) cap.add(echoUdp.slice(0, n));
  const u7 = B.udpDatagram({ src: A, dst: S, sport: 1234, dport: 7, payload: 5 });
  cap.add(B.ipv4({ src: A, dst: S, proto: 17, payload: bad(bad(u7, 4, 0), 5, 60) }));
  cap.add(B.ipv4({ src: A, dst: S, proto: 17, payload: bad(bad(u7.slice(0, 8), 4, 0), 5, 60) }));
  cap.add(B.ipv4({ src: A, dst: S, proto: 1, payload: new Uint8Array([8, 0, 0]) }));
  cap.add(B.udp({ src: A, dst: S, sport: 1234, dport: 5678, payload: 20, ip: { badChecksum: true, options: new Uint8Array([1, 1, 1, 0]) } }));
  cap.add(B.tcp({ src: A, dst: S, sport: 40005, dport: 7891, seq: 1, ack: 5, flags: 0x1ff, urg: 3, payload: 4 }));
  cap.add(B.tcp({ src: A, dst: S, sport: 40006, dport: 7891, seq: 1, ack: 0, flags: 0 }));
  return cap.frames;
}

/** Window scaling on both SYNs, on one only, and sequence numbers that wrap past 2^32. */
export function scalingAndWrap(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 9000, ciss: 0xffffff00, siss: 0xfffffff0 });
  k.handshake({ cOpts: synOpts(7), sOpts: synOpts(3), cWin: 65535, sWin: 65535 });
  for (let i = 0; i < 4; i++) k.c({ seq: 1 + i * 100, ack: 1, f: 'A', len: 100, win: 512 });
  k.s({ seq: 1, ack: 401, f: 'A', win: 100 });
  k.s({ seq: 1, ack: 401, f: 'A', win: 200 });
  const k2 = new TcpConn(cap, { cport: 49154, sport: 9000 });
  k2.handshake({ cOpts: synOpts(7), sOpts: B.options(B.opt.mss(1460)) });
  k2.c({ seq: 1, ack: 1, f: 'A', len: 10, win: 512 });
  k2.s({ seq: 1, ack: 11, f: 'A', win: 512 });
  return cap.frames;
}

/** ICMP errors quoting whole TCP segments and UDP datagrams (as Linux routers do; our stack quotes 8 bytes,
 *  RFC 792): Wireshark runs the quoted segment through TCP without the analysis, so it
 *  joins or starts a conversation, and a quoted SYN with a new ISN takes over the ports. */
export function icmpQuotingTcp(): CapturedFrame[] {
  const R = '10.0.0.9';
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 7891 });
  k.handshake({ cOpts: synOpts(2), sOpts: synOpts(3) });
  const data = k.c({ seq: 1, ack: 1, f: 'PA', len: 100, dt: 1000 });
  cap.add(B.icmpError(R, A, 3, 4, data, true), 500); // whole
  cap.add(B.icmpError(R, A, 3, 4, data.subarray(0, 40), true), 500); // the header only
  cap.add(B.icmpError(R, A, 3, 4, data.subarray(0, 30), true), 500); // half a header
  cap.add(B.icmpError(R, A, 3, 4, data.subarray(0, 60), true), 500); // 20 of 100 bytes
  cap.add(B.icmpError(R, A, 3, 3, B.tcp({ src: A, dst: S, sport: 49200, dport: 7, seq: 9, ack: 0, flags: 'PA', payload: 12 }), true));
  cap.add(B.icmpError(R, A, 3, 3, B.tcp({ src: A, dst: S, sport: 49201, dport: 9, seq: 9, ack: 0, flags: 'RA', payload: 5 }), true));
  const u = B.udp({ src: A, dst: S, sport: 49200, dport: 7, payload: 20 });
  cap.add(B.icmpError(R, A, 3, 3, u, true)); // UDP, whole, to echo
  cap.add(B.icmpError(R, A, 3, 3, B.udp({ src: A, dst: S, sport: 49200, dport: 5555, payload: 20 }).subarray(0, 38), true));
  const other = B.tcp({ src: A, dst: S, sport: 49153, dport: 7891, seq: 777, ack: 0, flags: 'S', options: synOpts(7, 5) });
  cap.add(B.icmpError(R, A, 11, 0, other, true), 500); // a SYN with a new ISN
  cap.add(B.icmpError(R, S, 3, 3, B.tcp({ src: S, dst: A, sport: 7891, dport: 49153, seq: 1001, ack: 1101, flags: 'FA' }), true));
  k.s({ seq: 1, ack: 101, f: 'A', dt: 1000 });
  k.c({ seq: 101, ack: 1, f: 'FA', dt: 1000 });
  // A segment quoted before the SYN/ACK settles the window scale (Wireshark's second pass).
  const k2 = new TcpConn(cap, { cport: 49154, sport: 9000 });
  const syn = k2.c({ seq: 0, f: 'S', opts: synOpts(4) });
  cap.add(B.icmpError(R, A, 11, 0, syn, true));
  cap.add(
    B.icmpError(R, A, 11, 0, B.tcp({ src: A, dst: S, sport: 49154, dport: 9000, seq: 1, ack: 0, flags: 'A', options: B.options(B.opt.sack([[5, 9]])) }), true),
  );
  k2.s({ seq: 0, ack: 1, f: 'SA', opts: synOpts(5) });
  // A quoted SYN/ACK with another ISN: the reused-ports flag shows on the ICMP frame.
  cap.add(B.icmpError(R, S, 3, 3, B.tcp({ src: S, dst: A, sport: 9000, dport: 49154, seq: 4242, ack: 1, flags: 'SA' }), true));
  k2.c({ seq: 1, ack: 1, f: 'A' });
  k2.s({ seq: 1, ack: 1, f: 'PA', len: 10 });
  return cap.frames;
}

/** TCP options cut at every byte (frames that end inside the options), SACK options
 *  with odd lengths, D-SACK blocks (RFC 2883), and an MSS option on a non-SYN. */
export function optionForms(): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const syn = B.tcp({
    src: A,
    dst: S,
    sport: 40100,
    dport: 7891,
    seq: 1,
    ack: 0,
    flags: 'S',
    options: B.options(B.opt.mss(1460), B.opt.nop(), B.opt.ws(7), B.opt.sackPerm(), B.opt.ts(5, 0), B.opt.eol(), B.opt.eol()),
  });
  for (let n = 40; n < syn.length; n++) cap.add(syn.slice(0, n));
  const sack = B.tcp({
    src: S,
    dst: A,
    sport: 7891,
    dport: 40101,
    seq: 1,
    ack: 1,
    flags: 'A',
    options: B.options(
      B.opt.nop(),
      B.opt.nop(),
      B.opt.sack([
        [100, 200],
        [300, 400],
        [500, 600],
      ]),
    ),
  });
  for (let n = 40; n < sack.length; n++) cap.add(sack.slice(0, n));
  const echoOpt = B.tcp({
    src: S,
    dst: A,
    sport: 7891,
    dport: 40102,
    seq: 1,
    ack: 1,
    flags: 'A',
    options: B.options(B.opt.nop(), B.opt.nop(), B.opt.ts(7, 8), [6, 6, 0, 0, 0, 9]),
  });
  for (let n = 52; n <= echoOpt.length; n++) cap.add(echoOpt.slice(0, n));
  const k = new TcpConn(cap, { cport: 40103, sport: 7891, ciss: 1000, siss: 5000 });
  k.handshake();
  k.c({ seq: 1, ack: 1, f: 'A', opts: B.options(B.opt.mss(1460)) }); // MSS on a non-SYN
  k.c({ seq: 1, ack: 1, f: 'A', opts: new Uint8Array([1, 1, 5, 2]) }); // SACK, no block
  k.c({ seq: 1, ack: 1, f: 'A', opts: new Uint8Array([5, 6, 0, 0, 0x13, 0x88, 1, 1]) }); // half a block
  k.c({ seq: 1, ack: 1, f: 'A', opts: new Uint8Array([5, 12, 0, 0, 0x13, 0x88, 0, 0, 0x13, 0x89, 0, 0, 0, 0, 0, 0]) });
  k.s({ seq: 1, ack: 1, f: 'PA', len: 300 });
  k.c({ seq: 1, ack: 301, f: 'A' });
  k.c({ seq: 1, ack: 301, f: 'A', opts: B.options(B.opt.nop(), B.opt.nop(), B.opt.sack([[5100, 5201]])) }); // D-SACK below the ACK
  k.c({
    seq: 1,
    ack: 301,
    f: 'A',
    opts: B.options(
      B.opt.nop(),
      B.opt.nop(),
      B.opt.sack([
        [5401, 5451],
        [5401, 5501],
      ]),
    ),
  }); // inside the second block
  return cap.frames;
}

/** An Ethernet II frame (LINKTYPE_ETHERNET) around a payload, padded to 60 bytes when
 *  `pad` (as a NIC puts a short frame on the wire). */
function ethFrame(dst: string, src: string, type: number, payload: Uint8Array, pad: boolean): Uint8Array {
  const mac = (m: string): number[] => m.split(':').map((h) => parseInt(h, 16));
  const n = 14 + payload.length;
  const b = new Uint8Array(pad && n < 60 ? 60 : n);
  b.set([...mac(dst), ...mac(src), type >> 8, type & 0xff]);
  b.set(payload, 14);
  return b;
}

function arpPacket(op: number, sha: string, spa: string, tha: string, tpa: string): Uint8Array {
  const mac = (m: string): number[] => m.split(':').map((h) => parseInt(h, 16));
  const ip = (a: string): number[] => a.split('.').map(Number);
  return new Uint8Array([0, 1, 8, 0, 6, 4, 0, op, ...mac(sha), ...ip(spa), ...mac(tha), ...ip(tpa)]);
}

/** Ethernet II as the engine's Ethernet links carry it: ARP request (broadcast, 42 bytes)
 *  and reply (padded to 60), the handshake and close of handshakeDataClose() with the
 *  frames of one side padded, gratuitous requests and replies (an announcement, RFC 5227),
 *  a probe, a datagram of a protocol without a dissector sent to the broadcast MAC
 *  (Wireshark's "Broadcast" colour, which no earlier rule takes). The engine's MACs are 02:00:00:..., a prefix Wireshark's vendor list leaves
 *  unnamed. (Other EtherTypes are left out: Wireshark names hundreds, the engine sends
 *  none.) */
export function ethernetForms(): CapturedFrame[] {
  const [c, s, bc, zero] = ['02:00:00:00:00:03', '02:00:00:00:01:07', 'ff:ff:ff:ff:ff:ff', '00:00:00:00:00:00'];
  const out: CapturedFrame[] = [];
  let t = 1_000_000;
  const add = (bytes: Uint8Array): void => {
    t += 500;
    out.push({ timeUs: t, bytes, ethernet: true });
  };
  add(ethFrame(bc, c, 0x0806, arpPacket(1, c, A, zero, S), false));
  add(ethFrame(c, s, 0x0806, arpPacket(2, s, S, c, A), true));
  for (const f of handshakeDataClose()) {
    const fromClient = f.bytes[15] === 1; // the source address's last byte: 10.0.0.1
    add(ethFrame(fromClient ? s : c, fromClient ? c : s, 0x0800, f.bytes, !fromClient));
  }
  add(ethFrame(bc, c, 0x0806, arpPacket(1, c, A, zero, A), false));
  add(ethFrame(bc, c, 0x0806, arpPacket(1, c, A, bc, A), false));
  add(ethFrame(bc, c, 0x0806, arpPacket(1, c, '0.0.0.0', zero, A), false));
  add(ethFrame(bc, s, 0x0806, arpPacket(2, s, S, bc, S), true));
  add(ethFrame(bc, c, 0x0800, B.ipv4({ src: A, dst: '10.0.0.255', proto: 99, payload: new Uint8Array(30) }), false));
  return out;
}

export const CAPTURES: Record<string, () => CapturedFrame[]> = {
  handshakeDataClose,
  lossAndRetransmissions,
  spuriousAndOutOfOrder,
  zeroWindowAndWindowFull,
  keepAliveResetReuse,
  ackedUnseen,
  icmpForms,
  icmpQuotingTcp,
  portsAndServices,
  ipFragments,
  malformedFrames,
  optionForms,
  scalingAndWrap,
  ethernetForms,
};
