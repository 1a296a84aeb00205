// Random TCP conversations for differential tests against tshark: not a TCP, but a
// generator of the situations the analysis must tell apart (loss before the capture
// point, reordering, retransmissions early and late, duplicate ACKs, SACK, zero windows
// and probes, keep-alives, window updates, FIN/RST, new connections on the same ports),
// with gaps around the thresholds that matter (3 ms, the iRTT, 20 ms).
import * as B from './build.ts';
import { CaptureBuilder, TcpConn } from './capture_builder.ts';

/** mulberry32: a small seeded PRNG, so a failing seed can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Side {
  next: number; // next new relative sequence number
  acked: number; // what the peer has acknowledged
  rcvd: number; // highest contiguous data received from the peer (what we ACK)
  win: number;
  sent: [number, number][]; // [seq, len] sent so far
}

export function randomCapture(seed: number, steps = 60): CaptureBuilder {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const cap = new CaptureBuilder();
  const ports = [7, 9, 9000, 7891];
  let isn = 1000 + Math.floor(r() * 1e6);
  const sport = pick(ports);
  const gap = (): number => pick([50, 500, 1500, 2900, 3100, 8000, 15000, 19000, 25000, 120000, 400000, 2000000]);
  for (let round = 0; round < 1 + Math.floor(r() * 2); round++) {
    const k = new TcpConn(cap, { cport: 49153, sport, ciss: isn, siss: 3_000_000_000 + Math.floor(r() * 1e6) });
    const ws = r() < 0.5;
    const sackOk = r() < 0.6;
    const synOpts = (): Uint8Array => B.options(B.opt.mss(pick([536, 1460])), ...(ws ? [B.opt.nop(), B.opt.ws(pick([0, 2, 7]))] : []), ...(sackOk ? [B.opt.sackPerm()] : []));
    const c: Side = { next: 1, acked: 1, rcvd: 1, win: pick([1000, 4000, 8192, 65535]), sent: [] };
    const s: Side = { next: 1, acked: 1, rcvd: 1, win: pick([1000, 4000, 8192, 65535]), sent: [] };
    const rtt = pick([400, 2000, 5000, 30000]);
    if (r() < 0.9) k.c({ seq: 0, f: 'S', opts: synOpts(), win: c.win, dt: gap(), lost: r() < 0.05 });
    if (r() < 0.15) k.c({ seq: 0, f: 'S', opts: synOpts(), win: c.win, dt: pick([1000000, 3000000]) }); // SYN again
    if (r() < 0.9) k.s({ seq: 0, ack: 1, f: 'SA', opts: r() < 0.8 ? synOpts() : B.options(B.opt.mss(1460)), win: s.win, dt: rtt / 2 });
    k.c({ seq: 1, ack: 1, f: 'A', win: c.win, dt: rtt / 2 });
    const send = (fromClient: boolean, me: Side, peer: Side, seq: number, len: number, lost = false, flags = 'PA'): void => {
      const spec = { seq, ack: me.rcvd, f: flags, len, win: me.win, dt: gap(), lost };
      if (fromClient) k.c(spec);
      else k.s(spec);
      me.sent.push([seq, len]);
      if (!lost && seq <= peer.rcvd && seq + len > peer.rcvd) peer.rcvd = seq + len;
    };
    const ackFrom = (fromClient: boolean, me: Side, extra: Partial<B.TcpSpec> & { sack?: boolean } = {}): void => {
      const opts = extra.sack && sackOk ? B.options(B.opt.nop(), B.opt.nop(), B.opt.sack([[0, 0]].map(() => {
        const peerIss = fromClient ? k.siss : k.ciss;
        const l = me.rcvd + 100;
        return [(peerIss + l) >>> 0, (peerIss + l + 200) >>> 0] as [number, number];
      }))) : undefined;
      const spec = { seq: fromClient ? c.next : s.next, ack: me.rcvd, f: 'A', win: extra.win ?? me.win, dt: gap(), ...(opts ? { opts } : {}) };
      if (fromClient) k.c(spec);
      else k.s(spec);
    };
    for (let i = 0; i < steps; i++) {
      const fromClient = r() < 0.65;
      const me = fromClient ? c : s;
      const peer = fromClient ? s : c;
      const x = r();
      if (x < 0.35) {
        const len = pick([1, 10, 100, 536, 1000]);
        send(fromClient, me, peer, me.next, len, r() < 0.12);
        me.next += len;
      } else if (x < 0.45 && me.sent.length) {
        const [q, len] = pick(me.sent); // retransmission of something sent
        send(fromClient, me, peer, q, len);
      } else if (x < 0.6) {
        ackFrom(!fromClient, peer, { sack: r() < 0.3 }); // the peer acknowledges
      } else if (x < 0.68) {
        for (let j = 0; j < 3; j++) ackFrom(!fromClient, peer, { sack: r() < 0.5 }); // duplicate ACKs
      } else if (x < 0.73) {
        peer.win = 0;
        ackFrom(!fromClient, peer);
      } else if (x < 0.78) {
        peer.win = pick([1000, 4000, 8192]);
        ackFrom(!fromClient, peer); // window update
      } else if (x < 0.83) {
        const len = r() < 0.5 ? 0 : 1; // keep-alive or probe
        const spec = { seq: me.next - (r() < 0.6 ? 1 : 0), ack: me.rcvd, f: 'A', len, win: me.win, dt: gap() };
        if (fromClient) k.c(spec);
        else k.s(spec);
      } else if (x < 0.88) {
        // two segments swapped (out of order)
        const a = me.next;
        me.next += 200;
        send(fromClient, me, peer, a + 100, 100);
        send(fromClient, me, peer, a, 100);
      } else if (x < 0.92) {
        // fill the peer's window exactly
        const len = Math.max(1, peer.acked + peer.win - me.next);
        if (len < 3000) {
          send(fromClient, me, peer, me.next, len);
          me.next += len;
        }
      } else {
        peer.acked = me.next;
        ackFrom(!fromClient, peer);
      }
    }
    const end = r();
    if (end < 0.5) {
      k.c({ seq: c.next, ack: c.rcvd, f: 'FA', win: c.win, dt: gap() });
      k.s({ seq: s.next, ack: c.next + 1, f: 'FA', win: s.win, dt: gap() });
      k.c({ seq: c.next + 1, ack: s.next + 1, f: 'A', win: c.win, dt: gap() });
    } else if (end < 0.8) {
      k.s({ seq: s.next, ack: c.rcvd, f: 'RA', win: 0, dt: gap() });
    }
    isn = r() < 0.3 ? isn : isn + 100000 + Math.floor(r() * 1e6);
  }
  return cap;
}
