// Random traffic for differential tests against tshark: not a TCP, but a generator of the
// situations the analysis must tell apart (loss before the capture point, reordering,
// retransmissions early and late, duplicate ACKs, SACK, zero windows and probes,
// keep-alives, window updates, FIN/RST, new connections on the same ports, sequence
// numbers wrapping, captures starting mid-connection), with gaps around the thresholds
// that matter (3 ms, the iRTT, 20 ms), interleaved with UDP and ICMP.
import * as B from './build.ts';
import { CaptureBuilder, TcpConn, type SegSpec } from './capture_builder.ts';
import type { CapturedFrame } from '../types.ts';
import { rng } from '../../util/seeded_rng.ts';

interface Side {
  next: number; // next new relative sequence number
  rcvd: number; // what this side acknowledges
  win: number;
  sent: [number, number][]; // [seq, len] sent so far
}

/** One randomly behaving TCP connection, advanced one step at a time. */
class RandomConn {
  private k!: TcpConn;
  private c!: Side;
  private s!: Side;
  private sackOk = false;
  private isn: number;
  private open = false;
  private readonly pick: <T>(xs: readonly T[]) => T;

  constructor(
    private readonly cap: CaptureBuilder,
    private readonly r: () => number,
    private readonly cport: number,
    private readonly sport: number,
    private readonly gap: () => number,
  ) {
    this.pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    // Sometimes near 2^32, so relative numbers and comparisons wrap.
    this.isn = r() < 0.2 ? 0xffffffff - Math.floor(r() * 3000) : Math.floor(r() * 0xffffffff);
  }

  private seg(fromClient: boolean, s: SegSpec): void {
    if (fromClient) this.k.c(s);
    else this.k.s(s);
  }

  private start(): void {
    const { r, pick } = this;
    const siss = r() < 0.2 ? 0xffffffff - Math.floor(r() * 3000) : Math.floor(r() * 0xffffffff);
    this.k = new TcpConn(this.cap, { client: '10.0.0.1', server: '10.0.0.2', cport: this.cport, sport: this.sport, ciss: this.isn, siss });
    const ws = r() < 0.5;
    this.sackOk = r() < 0.6;
    const ts = r() < 0.3;
    const synOpts = (): Uint8Array =>
      B.options(
        B.opt.mss(pick([536, 1460])),
        ...(ws ? [B.opt.nop(), B.opt.ws(pick([0, 2, 7, 15]))] : []),
        ...(this.sackOk ? [B.opt.sackPerm()] : []),
        ...(ts ? [B.opt.ts(Math.floor(r() * 1e6), 0)] : []),
      );
    this.c = { next: 1, rcvd: 1, win: pick([1000, 4000, 8192, 65535]), sent: [] };
    this.s = { next: 1, rcvd: 1, win: pick([1000, 4000, 8192, 65535]), sent: [] };
    const rtt = pick([400, 2000, 5000, 30000]);
    const midStart = r() < 0.1; // capture starts after the handshake
    if (!midStart) {
      if (r() < 0.9) this.k.c({ seq: 0, f: 'S', opts: synOpts(), win: this.c.win, dt: this.gap(), lost: r() < 0.05 });
      if (r() < 0.15) this.k.c({ seq: 0, f: 'S', opts: synOpts(), win: this.c.win, dt: pick([1000000, 3000000]) });
      if (r() < 0.9) this.k.s({ seq: 0, ack: 1, f: 'SA', opts: r() < 0.8 ? synOpts() : B.options(B.opt.mss(1460)), win: this.s.win, dt: rtt / 2 });
      this.k.c({ seq: 1, ack: 1, f: 'A', win: this.c.win, dt: rtt / 2 });
    }
    this.open = true;
  }

  private sack(fromClient: boolean, me: Side): Uint8Array | undefined {
    if (!this.sackOk) return undefined;
    const peerIss = fromClient ? this.k.siss : this.k.ciss;
    const blocks: [number, number][] = [];
    const n = 1 + Math.floor(this.r() * 4);
    for (let i = 0; i < n; i++) {
      const l = me.rcvd + 100 + i * 300;
      blocks.push([(peerIss + l) >>> 0, (peerIss + l + 200) >>> 0]);
    }
    return B.options(B.opt.nop(), B.opt.nop(), B.opt.sack(blocks));
  }

  step(): void {
    if (!this.open) return this.start();
    const { r, pick } = this;
    const fromClient = r() < 0.65;
    const me = fromClient ? this.c : this.s;
    const peer = fromClient ? this.s : this.c;
    const send = (seq: number, len: number, lost = false, f = 'PA'): void => {
      this.seg(fromClient, { seq, ack: me.rcvd, f, len, win: me.win, dt: this.gap(), lost });
      me.sent.push([seq, len]);
      if (!lost && seq <= peer.rcvd && seq + len > peer.rcvd) peer.rcvd = seq + len;
    };
    const ack = (win?: number, withSack = false): void => {
      const opts = withSack ? this.sack(!fromClient, peer) : undefined;
      this.seg(!fromClient, { seq: peer.next, ack: peer.rcvd, f: 'A', win: win ?? peer.win, dt: this.gap(), ...(opts ? { opts } : {}) });
    };
    const x = r();
    if (x < 0.33) {
      const len = pick([1, 10, 100, 536, 1000]);
      send(me.next, len, r() < 0.12);
      me.next += len;
    } else if (x < 0.43 && me.sent.length) {
      const [q, len] = pick(me.sent);
      send(q, len);
    } else if (x < 0.57) {
      ack(undefined, r() < 0.3);
    } else if (x < 0.65) {
      for (let j = 0; j < 3; j++) ack(undefined, r() < 0.5);
    } else if (x < 0.7) {
      peer.win = 0;
      ack();
    } else if (x < 0.75) {
      peer.win = pick([1000, 4000, 8192]);
      ack();
    } else if (x < 0.8) {
      this.seg(fromClient, { seq: me.next - (r() < 0.6 ? 1 : 0), ack: me.rcvd, f: 'A', len: r() < 0.5 ? 0 : 1, win: me.win, dt: this.gap() });
    } else if (x < 0.85) {
      const a = me.next;
      me.next += 200;
      send(a + 100, 100);
      send(a, 100);
    } else if (x < 0.88) {
      send(me.next, 50, false, pick(['UA', 'PUA', 'EA', 'CA']));
      me.next += 50;
    } else if (x < 0.9) {
      // ends: FIN both ways, or a RST (sometimes with data), then maybe a new connection
      if (r() < 0.5) {
        this.k.c({ seq: this.c.next, ack: this.c.rcvd, f: 'FA', win: this.c.win, dt: this.gap() });
        this.k.s({ seq: this.s.next, ack: this.c.next + 1, f: 'FA', win: this.s.win, dt: this.gap() });
        this.k.c({ seq: this.c.next + 1, ack: this.s.next + 1, f: 'A', win: this.c.win, dt: this.gap() });
      } else {
        this.seg(r() < 0.5, { seq: me.next, ack: me.rcvd, f: 'RA', win: 0, len: r() < 0.2 ? 12 : 0, dt: this.gap() });
      }
      this.open = false;
      if (r() < 0.7) this.isn = (this.isn + 100000 + Math.floor(r() * 1e6)) >>> 0;
    } else {
      peer.rcvd = me.next;
      ack();
    }
  }
}

export interface RandomOptions {
  steps?: number;
  /** number of concurrent TCP connections (different client ports) */
  conns?: number;
  /** add UDP and ICMP frames among the TCP ones */
  noise?: boolean;
}

export function randomCapture(seed: number, o: RandomOptions = {}): CaptureBuilder {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const cap = new CaptureBuilder();
  const gap = (): number => pick([50, 500, 1500, 2900, 3100, 8000, 15000, 19000, 25000, 120000, 400000, 2000000]);
  const sport = pick([7, 9, 9000, 7891]);
  const conns = Array.from({ length: o.conns ?? 1 }, (_, i) => new RandomConn(cap, r, 49153 + i, sport, gap));
  let echoSeq = 0;
  for (let i = 0; i < (o.steps ?? 60); i++) {
    if (o.noise && r() < 0.15) {
      const y = r();
      if (y < 0.4) cap.add(B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 49200, dport: pick([7, 9, 9000]), payload: pick([0, 5, 100]) }), gap());
      else if (y < 0.8) {
        const reply = r() < 0.5;
        cap.add(B.echo(reply ? '10.0.0.2' : '10.0.0.1', reply ? '10.0.0.1' : '10.0.0.2', reply, 0x42, reply ? echoSeq : ++echoSeq, pick([0, 8, 56])), gap());
      } else {
        // An error quoting a UDP datagram, or a TCP segment seen earlier, 8 bytes of it
        // (RFC 792) or whole (as Linux does): the quoted segment joins its conversation.
        const tcpFrames = cap.frames.filter((f) => f.bytes[9] === 6);
        const orig =
          tcpFrames.length && r() < 0.6 ? pick(tcpFrames).bytes : B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 49200, dport: 5555, payload: 20 });
        cap.add(B.icmpError('10.0.0.9', '10.0.0.1', pick([3, 11]), pick([0, 1, 3]), orig, r() < 0.5), gap());
      }
      continue;
    }
    pick(conns).step();
  }
  return cap;
}

/** Random traffic with about 30 % of the frames cut at a random length (as if the rest
 *  never arrived; the frame claims no more than it holds): every layer's handling of
 *  data that ends early, against tshark. */
export function cutCapture(seed: number): CapturedFrame[] {
  const r = rng(seed ^ 0x5eed);
  return randomCapture(seed, { conns: 2, steps: 60, noise: true }).frames.map((f) =>
    r() < 0.3 ? { timeUs: f.timeUs, bytes: f.bytes.slice(0, Math.floor(r() * f.bytes.length)) } : f,
  );
}
