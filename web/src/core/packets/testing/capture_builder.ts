// Builds captures for tests: a clock, and TCP connections written with relative sequence
// numbers (seq 0 is the SYN, as Wireshark shows them) so a scenario reads like a ladder.
import type { CapturedFrame } from '../types.ts';
import * as B from './build.ts';

export class CaptureBuilder {
  readonly frames: CapturedFrame[] = [];
  /** current time in microseconds */
  t = 1_000_000;

  /** Appends a frame `dtUs` after the previous one. */
  add(bytes: Uint8Array, dtUs = 1000): this {
    this.t += dtUs;
    this.frames.push({ timeUs: this.t, bytes });
    return this;
  }

  /** Advances the clock without a frame (a segment lost before the capture point). */
  skip(dtUs: number): this {
    this.t += dtUs;
    return this;
  }
}

export interface SegSpec {
  /** relative sequence number (0 = the SYN) */
  seq: number;
  /** relative acknowledgment number; the ACK flag comes from `f` */
  ack?: number;
  /** flags as letters: S A F R P U E C */
  f: string;
  len?: number;
  win?: number;
  opts?: Uint8Array;
  /** microseconds since the previous frame */
  dt?: number;
  /** build it but do not add it to the capture (lost before the capture point) */
  lost?: boolean;
  payload?: Uint8Array;
  ip?: Partial<B.Ipv4Spec>;
}

export interface TcpConnSpec {
  client?: string;
  server?: string;
  cport: number;
  sport: number;
  /** initial sequence numbers (absolute) */
  ciss?: number;
  siss?: number;
}

/** One TCP connection between a client and a server, writing into a CaptureBuilder. */
export class TcpConn {
  readonly client: string;
  readonly server: string;
  readonly ciss: number;
  readonly siss: number;

  constructor(
    private readonly cap: CaptureBuilder,
    readonly spec: TcpConnSpec,
  ) {
    this.client = spec.client ?? '10.0.0.1';
    this.server = spec.server ?? '10.0.0.2';
    this.ciss = spec.ciss ?? 1_000_000;
    this.siss = spec.siss ?? 3_000_000_000; // high, so relative numbers wrap in absolute space
  }

  /** A segment from the client. */
  c(s: SegSpec): Uint8Array {
    return this.seg(true, s);
  }

  /** A segment from the server. */
  s(s: SegSpec): Uint8Array {
    return this.seg(false, s);
  }

  private seg(fromClient: boolean, s: SegSpec): Uint8Array {
    const myIss = fromClient ? this.ciss : this.siss;
    const peerIss = fromClient ? this.siss : this.ciss;
    const hasAck = s.f.includes('A');
    const bytes = B.tcp({
      src: fromClient ? this.client : this.server,
      dst: fromClient ? this.server : this.client,
      sport: fromClient ? this.spec.cport : this.spec.sport,
      dport: fromClient ? this.spec.sport : this.spec.cport,
      seq: (myIss + s.seq) >>> 0,
      ack: hasAck ? (peerIss + (s.ack ?? 0)) >>> 0 : 0,
      flags: s.f,
      win: s.win ?? 8192,
      ...(s.opts ? { options: s.opts } : {}),
      payload: s.payload ?? s.len ?? 0,
      ip: { id: this.nextId(), ...s.ip },
    });
    if (!s.lost) this.cap.add(bytes, s.dt ?? 1000);
    else this.cap.skip(s.dt ?? 1000);
    return bytes;
  }

  private id = 1;
  private nextId(): number {
    return this.id++ & 0xffff;
  }

  /** SYN, SYN/ACK, ACK with the given options on the SYNs. */
  handshake(o: { cOpts?: Uint8Array; sOpts?: Uint8Array; cWin?: number; sWin?: number; rtt?: number } = {}): void {
    const half = (o.rtt ?? 2000) / 2;
    this.c({ seq: 0, f: 'S', win: o.cWin ?? 8192, ...(o.cOpts ? { opts: o.cOpts } : {}), dt: half });
    this.s({ seq: 0, ack: 1, f: 'SA', win: o.sWin ?? 8192, ...(o.sOpts ? { opts: o.sOpts } : {}), dt: half });
    this.c({ seq: 1, ack: 1, f: 'A', win: o.cWin ?? 8192, dt: half });
  }
}
