// Wireshark's TCP sequence analysis (packet-tcp.c, tcp_analyze_sequence_number), computed
// over a capture in order, per conversation and direction, with tshark 4.0's defaults:
// relative sequence numbers, bytes in flight from the unacked list, fast retransmission
// taking precedence over out-of-order. The checks run in Wireshark's order, which
// matters: a zero window probe skips every later check, a keep-alive is never a
// retransmission, a spurious retransmission is tested before fast retransmission, ...
// The per-segment flow (conversation lookup, reused ports, window scaling) is in
// tcp_segment.ts; this file is the algorithm on one segment.
import type { TcpConversation, TcpFlow } from './tcp_conversation.ts';
import { TCP_MAX_UNACKED_SEGMENTS, TCP_S_BASE_SEQ_SET } from './tcp_conversation.ts';
import { TH_ACK, TH_FIN, TH_PUSH, TH_RST, TH_SYN } from './tcp.ts';

// Analysis flags (packet-tcp.h TCP_A_*).
export const TCP_A_RETRANSMISSION = 0x0001;
export const TCP_A_LOST_PACKET = 0x0002;
export const TCP_A_ACK_LOST_PACKET = 0x0004;
export const TCP_A_KEEP_ALIVE = 0x0008;
export const TCP_A_DUPLICATE_ACK = 0x0010;
export const TCP_A_ZERO_WINDOW = 0x0020;
export const TCP_A_ZERO_WINDOW_PROBE = 0x0040;
export const TCP_A_ZERO_WINDOW_PROBE_ACK = 0x0080;
export const TCP_A_KEEP_ALIVE_ACK = 0x0100;
export const TCP_A_OUT_OF_ORDER = 0x0200;
export const TCP_A_FAST_RETRANSMISSION = 0x0400;
export const TCP_A_WINDOW_UPDATE = 0x0800;
export const TCP_A_WINDOW_FULL = 0x1000;
export const TCP_A_REUSED_PORTS = 0x2000;
export const TCP_A_SPURIOUS_RETRANSMISSION = 0x4000;

/** Fast retransmission: within 20 ms of the last duplicate ACK (packet-tcp.c). */
const FAST_RETRANS_WINDOW_US = 20_000;
/** Out-of-order: within 3 ms of the highest segment when the iRTT is unknown. */
const OOO_THRESHOLD_DEFAULT_US = 3_000;

/** Per-frame results (struct tcp_acked), times in microseconds. */
export interface TcpAcked {
  flags: number;
  frameAcked: number;
  rttUs: number;
  bytesInFlight: number;
  pushBytesSent: number;
  dupackNum: number;
  dupackFrame: number;
  rtoUs: number;
  rtoFrame: number;
}

export function newAcked(): TcpAcked {
  return { flags: 0, frameAcked: 0, rttUs: 0, bytesInFlight: 0, pushBytesSent: 0, dupackNum: 0, dupackFrame: 0, rtoUs: 0, rtoFrame: 0 };
}

// Sequence-space comparisons (packet-tcp.c GT_SEQ & co): modulo 2^32.
const d32 = (a: number, b: number): number => (a - b) | 0;
const GT_SEQ = (x: number, y: number): boolean => d32(y, x) < 0;
const LT_SEQ = (x: number, y: number): boolean => d32(x, y) < 0;
const LE_SEQ = (x: number, y: number): boolean => d32(x, y) <= 0;
const u32 = (x: number): number => x >>> 0;

export interface SegmentIn {
  frame: number;
  t: number;
  seq: number;
  ack: number;
  seglen: number;
  flags: number;
  /** the window field, unscaled */
  window: number;
}

/** The frame's result while one segment is analysed, created on demand like Wireshark's
 *  tcp_analyze_get_acked_struct(). Module state instead of a closure per segment: the
 *  analysis runs once per frame of 100 000-frame captures. */
let cur: TcpAcked | null = null;
function need(): TcpAcked {
  return (cur ??= newAcked());
}

/** tcp_analyze_sequence_number() for one segment. `ta` is the frame's result, possibly
 *  already holding TCP_A_REUSED_PORTS; returns it (created on demand, like Wireshark). */
export function analyzeSegment(conv: TcpConversation, fwd: TcpFlow, rev: TcpFlow, s: SegmentIn, ta: TcpAcked | null): TcpAcked | null {
  cur = ta;
  try {
    analyze(conv, fwd, rev, s);
    return cur;
  } finally {
    cur = null;
  }
}

function analyze(conv: TcpConversation, fwd: TcpFlow, rev: TcpFlow, s: SegmentIn): void {
  const { seq, ack, seglen, flags, window, t } = s;

  // Base sequence numbers: the SYN's, or one before the first segment seen (bug 1542).
  if (!(fwd.staticFlags & TCP_S_BASE_SEQ_SET)) {
    fwd.baseSeq = flags & TH_SYN ? seq : u32(seq - 1);
    fwd.staticFlags |= TCP_S_BASE_SEQ_SET | (flags & TH_SYN ? (flags & TH_ACK ? 0x05 : 0x03) : 0);
  }
  // The peer's ISN from the first segment that carries an ACK (not the SYN's ack field).
  if (!(rev.staticFlags & TCP_S_BASE_SEQ_SET) && flags & TH_ACK) {
    rev.baseSeq = u32(ack - 1);
    rev.staticFlags |= TCP_S_BASE_SEQ_SET;
  }
  if (flags & TH_ACK) rev.validBif = true;

  checks: {
    // ZERO WINDOW PROBE: one byte at the next expected sequence number into a zero window.
    if (seglen === 1 && seq === fwd.nextseq && rev.window === 0) {
      need().flags |= TCP_A_ZERO_WINDOW_PROBE;
      break checks;
    }
    // ZERO WINDOW: window 0 on a segment without SYN, FIN or RST.
    if (window === 0 && (flags & (TH_RST | TH_FIN | TH_SYN)) === 0) need().flags |= TCP_A_ZERO_WINDOW;
    // LOST PACKET: beyond the highest sequence number seen (not for RST).
    if (fwd.nextseq && GT_SEQ(seq, fwd.nextseq) && (flags & TH_RST) === 0) {
      need().flags |= TCP_A_LOST_PACKET;
      fwd.validBif = false; // until an ACK is seen in the other direction
    }
    // KEEP ALIVE: 0 or 1 byte one before the next expected sequence number.
    if ((seglen === 0 || seglen === 1) && seq === u32(fwd.nextseq - 1) && (flags & (TH_SYN | TH_FIN | TH_RST)) === 0) {
      need().flags |= TCP_A_KEEP_ALIVE;
    }
    // WINDOW UPDATE: no data, same seq/ack as before, a new non-zero window.
    if (seglen === 0 && window && window !== fwd.window && seq === fwd.nextseq && ack === fwd.lastack && (flags & (TH_SYN | TH_FIN | TH_RST)) === 0) {
      need().flags |= TCP_A_WINDOW_UPDATE;
    }
    // WINDOW FULL: data up to the right edge of the peer's advertised window.
    if (seglen > 0 && rev.winScale !== -1 && (flags & (TH_SYN | TH_FIN | TH_RST)) === 0) {
      const shift = rev.isFirstAck || rev.winScale === -2 ? 0 : rev.winScale;
      const edge = u32(rev.lastack + u32(rev.window * 2 ** shift));
      if (u32(seq + seglen) === edge) need().flags |= TCP_A_WINDOW_FULL;
    }
    const sameAsBefore = seglen === 0 && seq === fwd.nextseq && ack === fwd.lastack && (flags & (TH_SYN | TH_FIN | TH_RST)) === 0;
    // KEEP ALIVE ACK: repeats the last ACK after a keep-alive from the peer.
    if (sameAsBefore && window && window === fwd.window && rev.lastSegmentFlags & TCP_A_KEEP_ALIVE) {
      need().flags |= TCP_A_KEEP_ALIVE_ACK;
      break checks;
    }
    // ZERO WINDOW PROBE ACK: repeats the last ACK and the zero window after a probe.
    if (sameAsBefore && window === 0 && window === fwd.window && rev.lastSegmentFlags & TCP_A_ZERO_WINDOW_PROBE) {
      need().flags |= TCP_A_ZERO_WINDOW_PROBE_ACK;
      break checks;
    }
    // DUPLICATE ACK: same window, seq and ack as the previous segment, no data.
    if (sameAsBefore && window && window === fwd.window) {
      fwd.dupacknum = fwd.dupacknum === -1 ? 1 : fwd.dupacknum + 1; // -1: after an ACKed unseen segment
      const a = need();
      a.flags |= TCP_A_DUPLICATE_ACK;
      a.dupackNum = fwd.dupacknum;
      a.dupackFrame = fwd.lastnondupack;
    }
  }
  // finished_fwd: a new ack number resets the duplicate count.
  if (ack !== fwd.lastack) {
    fwd.lastnondupack = s.frame;
    fwd.dupacknum = 0;
  }

  // ACKED LOST PACKET: acknowledges beyond anything seen from the peer.
  if (rev.maxseqtobeacked && GT_SEQ(ack, rev.maxseqtobeacked) && flags & TH_ACK) {
    const a = need();
    if (LT_SEQ(rev.maxseqtobeacked, rev.nextseq)) {
      // The boundary jumps to the peer's highest sequence number: flagged once. (Checked
      // against tshark 4.0: it jumps up, in sequence space; later sources differ.)
      rev.maxseqtobeacked = rev.nextseq;
      a.flags |= TCP_A_ACK_LOST_PACKET;
    } else {
      // The peer may be stalled, sending pure ACKs: flag the same loss only once, until
      // the peer's ACK number moves (which resets its duplicate ACK count).
      if (rev.dupacknum === 0) a.flags |= TCP_A_ACK_LOST_PACKET;
      rev.dupacknum = -1;
    }
  }

  // RETRANSMISSION / FAST RETRANSMISSION / OUT-OF-ORDER / SPURIOUS.
  if (seglen > 0 || flags & (TH_SYN | TH_FIN)) retransmissionChecks(conv, fwd, rev, s);

  // finished_checking_retransmission_type: record the segment.
  let nextseq = u32(seq + seglen);
  if ((seglen || flags & (TH_SYN | TH_FIN)) && fwd.segments.length < TCP_MAX_UNACKED_SEGMENTS) {
    if (flags & (TH_SYN | TH_FIN)) nextseq = u32(nextseq + 1);
    fwd.segments.push({ frame: s.frame, seq, nextseq, ts: t });
  }
  // Highest sequence number so far; zero window probes do not advance it.
  const zwp = cur !== null && (cur.flags & TCP_A_ZERO_WINDOW_PROBE) !== 0;
  if (GT_SEQ(nextseq, fwd.nextseq) || !fwd.nextseq) {
    if (!zwp) {
      fwd.nextseq = nextseq;
      fwd.nextseqframe = s.frame;
      fwd.nextseqtime = t;
    }
  }
  // Highest contiguous sequence number, for ACKED LOST PACKET.
  if (seq === fwd.maxseqtobeacked || !fwd.maxseqtobeacked) {
    if (!zwp) fwd.maxseqtobeacked = fwd.nextseq;
  }
  fwd.window = window;
  fwd.lastack = ack;
  fwd.lastacktime = t;
  fwd.lastSegmentFlags = cur ? cur.flags : 0;

  removeAcked(rev, s);
  bytesInFlight(fwd, rev, s);
}

function retransmissionChecks(conv: TcpConversation, fwd: TcpFlow, rev: TcpFlow, s: SegmentIn): void {
  const { seq, seglen, flags, t } = s;
  let seqNotAdvanced = fwd.nextseq !== 0 && LT_SEQ(seq, fwd.nextseq);
  if (cur && cur.flags & TCP_A_KEEP_ALIVE) return; // a keep-alive is not a retransmission
  // More than one byte starting one before nextseq adds data after a zero window probe.
  if (seglen > 1 && u32(fwd.nextseq - 1) === seq) seqNotAdvanced = false;
  // SPURIOUS: all of it was already acknowledged by the peer.
  if (seglen > 0 && rev.lastack && LE_SEQ(u32(seq + seglen), rev.lastack)) {
    need().flags |= TCP_A_SPURIOUS_RETRANSMISSION;
    return;
  }
  // FAST RETRANSMISSION: >= 2 duplicate ACKs for this seq, within 20 ms of the last one.
  // Wireshark 4.0 keeps the count unsigned: the -1 left by an ACKed unseen segment
  // compares as a large number, so it passes this test too (checked with tshark).
  const sinceAck = t - rev.lastacktime;
  if (seqNotAdvanced && (rev.dupacknum >= 2 || rev.dupacknum === -1) && rev.lastack === seq && sinceAck >= 0 && sinceAck < FAST_RETRANS_WINDOW_US) {
    need().flags |= TCP_A_FAST_RETRANSMISSION;
    return;
  }
  // OUT-OF-ORDER: soon after the highest segment (within the iRTT, or 3 ms if unknown).
  const sinceNext = t - fwd.nextseqtime;
  const threshold = conv.tsFirstRtt === 0 ? OOO_THRESHOLD_DEFAULT_US : conv.tsFirstRtt;
  const end = u32(seq + seglen + (flags & (TH_SYN | TH_FIN) ? 1 : 0));
  if (seqNotAdvanced && sinceNext >= 0 && sinceNext < threshold && fwd.nextseq !== end) {
    need().flags |= TCP_A_OUT_OF_ORDER;
    return;
  }
  if (seqNotAdvanced) {
    const a = need();
    a.flags |= TCP_A_RETRANSMISSION;
    // The RTO is measured from the oldest unacked segment, likely the one resent here,
    // or else from the segment with the highest sequence number.
    if (fwd.segments.length) {
      const oldest = fwd.segments[0]!;
      a.rtoUs = t - oldest.ts;
      a.rtoFrame = oldest.frame;
    } else {
      a.rtoUs = t - fwd.nextseqtime;
      a.rtoFrame = fwd.nextseqframe;
    }
  }
}

/** Removes the peer's segments this ACK covers; an exact match gives acks_frame and the
 *  RTT. Wireshark walks its list newest to oldest and the last exact match wins, i.e. the
 *  oldest: walking oldest first, the first match is kept. */
function removeAcked(rev: TcpFlow, s: SegmentIn): void {
  const ack = s.ack;
  const segs = rev.segments;
  let w = 0;
  let matched = false;
  for (let i = 0; i < segs.length; i++) {
    const u = segs[i]!;
    if (ack === u.nextseq) {
      if (!matched) {
        matched = true;
        const a = need();
        a.frameAcked = u.frame;
        a.rttUs = s.t - u.ts;
      }
      continue; // acknowledged: dropped
    }
    if (GT_SEQ(ack, u.seq) && LE_SEQ(ack, u.nextseq)) {
      u.seq = ack; // partly acknowledged
      segs[w++] = u;
    } else if (GT_SEQ(u.nextseq, ack)) {
      segs[w++] = u; // not yet acknowledged
    }
  }
  segs.length = w;
}

/** Bytes in flight from the unacked list, less the peer's SACKed blocks (tcp.bif_seq_based off). */
function bytesInFlight(fwd: TcpFlow, rev: TcpFlow, s: SegmentIn): void {
  const segs = fwd.segments;
  if (s.seglen === 0 || segs.length === 0 || !fwd.validBif) return;
  const newest = segs[segs.length - 1]!;
  let first = u32(newest.seq - fwd.baseSeq);
  let last = u32(newest.nextseq - fwd.baseSeq);
  for (const u of segs) {
    const n = u32(u.nextseq - fwd.baseSeq);
    const q = u32(u.seq - fwd.baseSeq);
    if (n > last) last = n;
    if (q < first) first = q;
  }
  let inFlight = u32(last - first);
  let delivered = 0;
  for (let i = 0; i < rev.numSackRanges; i++) delivered += u32(rev.sackRight[i + 1]! - rev.sackLeft[i + 1]!);
  inFlight = u32(inFlight - delivered);
  const ta = need();
  if (inFlight > 0 && inFlight < 2_000_000_000) {
    ta.bytesInFlight = inFlight;
    if (s.flags & (TH_SYN | TH_FIN)) ta.bytesInFlight -= 1; // SYN and FIN are virtual bytes
  }
  const psh = (s.flags & TH_PUSH) !== 0;
  if (psh && !fwd.pushSetLast) {
    fwd.pushBytesSent += s.seglen;
    fwd.pushSetLast = true;
  } else if (psh) {
    fwd.pushBytesSent = s.seglen;
  } else if (fwd.pushSetLast) {
    fwd.pushBytesSent = s.seglen;
    fwd.pushSetLast = false;
  } else {
    fwd.pushBytesSent += s.seglen;
  }
  ta.pushBytesSent = fwd.pushBytesSent;
}
