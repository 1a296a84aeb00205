// One TCP segment through Wireshark's dissect_tcp(), in its order: find the conversation,
// start a new one when a SYN reuses the ports with a new ISN, run the sequence analysis,
// make seq/ack relative, scale the window, then let the options (window scale, SACK)
// update the flow, and note SYN times for the iRTT.
import { analyzeSegment, newAcked, TCP_A_REUSED_PORTS, type SegmentIn, type TcpAcked } from './tcp_analysis.ts';
import {
  TCP_COMPLETENESS_ACK,
  TCP_COMPLETENESS_DATA,
  TCP_COMPLETENESS_FIN,
  TCP_COMPLETENESS_RST,
  TCP_COMPLETENESS_SYNACK,
  TCP_COMPLETENESS_SYNSENT,
  TCP_S_BASE_SEQ_SET,
  TcpConversations,
  type TcpConversation,
  type TcpFlow,
} from './tcp_conversation.ts';
import { u32 } from './bytes.ts';
import { TCP_MAX_SACK_RANGES_STORED } from './tcp_options.ts';
import { TH_ACK, TH_FIN, TH_RST, TH_SYN, type TcpHeader } from './tcp.ts';

/** What the packet list and the details tree need from the analysis of one segment. */
export interface TcpSegmentResult {
  conv: TcpConversation;
  /** seq and ack as shown (relative when the analysis ran, as Wireshark shows them) */
  seq: number;
  ack: number;
  /** tcp.nxtseq as shown, when the segment length is known */
  nextSeq: number | null;
  /** window as shown in Info (scaled when the scale is known) */
  win: number;
  /** tcp.window_size_scalefactor: -1 unknown, -2 none, else the multiplier; null on SYNs */
  scaleFactor: number | null;
  /** the peer's base sequence number, which makes SACK edges relative; kept only when the
   *  segment carries SACK blocks (a raw sequence number costs a heap number per row) */
  sackBase: number;
  ta: TcpAcked | null;
  /** time since the stream's first frame and since its previous frame, µs */
  sinceFirstUs: number;
  sincePrevUs: number;
  frame: number;
}

/** tcp.completeness as the second pass shows it for a frame: the first pass's final value,
 *  plus, after the conversation's first frame, the bits that frame adds in that pass. */
export function shownCompleteness(r: TcpSegmentResult): number {
  const c = r.conv;
  return r.frame === c.firstFrame ? c.completeness : c.completeness | c.firstBits;
}

/** Where a segment was seen: its frame number, capture time (µs), and IPv4 addresses as
 *  unsigned numbers. Reused by the caller from frame to frame. */
export interface SegmentContext {
  frame: number;
  t: number;
  src: number;
  dst: number;
}

/** The analysis input, reused from segment to segment (no allocation per frame). */
const SEGMENT: SegmentIn = { frame: 0, t: 0, seq: 0, ack: 0, seglen: 0, flags: 0, window: 0 };

export class TcpSegments {
  readonly conversations = new TcpConversations();

  segment(ctx: SegmentContext, h: TcpHeader, buf: Uint8Array): TcpSegmentResult | null {
    if (h.stage === 'none' || h.stage === 'ports') return null; // no conversation yet
    let conv = this.conversations.find(ctx.src, ctx.dst, h.sport, h.dport);
    let isNew = false;
    if (!conv) {
      conv = this.conversations.create(ctx.src, ctx.dst, h.sport, h.dport, ctx.t);
      conv.firstFrame = ctx.frame;
      isNew = true;
    }
    let fwd = conv.fwd(ctx.src, ctx.dst, h.sport, h.dport);
    let rev = conv.other(fwd);
    let ta: TcpAcked | null = null;
    const synOnly = (h.flags & (TH_SYN | TH_ACK)) === TH_SYN;
    // A SYN with another ISN on known ports: a new conversation (TCP Port numbers reused).
    if (synOnly && fwd.staticFlags & TCP_S_BASE_SEQ_SET) {
      if (h.seq !== fwd.baseSeq) {
        conv = this.conversations.create(ctx.src, ctx.dst, h.sport, h.dport, ctx.t);
        fwd = conv.fwd(ctx.src, ctx.dst, h.sport, h.dport);
        rev = conv.other(fwd);
        ta = newAcked();
        ta.flags |= TCP_A_REUSED_PORTS;
        conv.completeness = TCP_COMPLETENESS_SYNSENT;
        conv.firstFrame = ctx.frame;
      } else {
        // The same ISN again: a retransmitted SYN, or a reconnection after a RST whose
        // sequence number equalled the ACK it answered (RFC 9293 3.10.7.1); Wireshark
        // restores nextseq so what follows is not flagged (issue 17616). No flag in 4.0,
        // but the (empty) analysis record it creates shows [SEQ/ACK analysis].
        fwd.nextseq = fwd.maxseqtobeacked;
        ta = newAcked();
      }
    }
    // A SYN/ACK with another ISN than the one seen: the same conversation, flagged, and
    // its base sequence number follows the new SYN/ACK (Wireshark issue 16944).
    if ((h.flags & (TH_SYN | TH_ACK)) === (TH_SYN | TH_ACK) && fwd.staticFlags & TCP_S_BASE_SEQ_SET && h.seq !== fwd.baseSeq) {
      fwd.baseSeq = h.seq;
      ta ??= newAcked();
      ta.flags |= TCP_A_REUSED_PORTS;
      conv.unstable = true;
    }
    fwd.numSackRanges = 0;
    // A SYN/ACK that sets no base (too short to analyse) may move the base set later by
    // the flow's first analysed segment, in the second pass (the check above, again).
    if ((h.flags & (TH_SYN | TH_ACK)) === (TH_SYN | TH_ACK) && !h.haveSegLen && !(fwd.staticFlags & TCP_S_BASE_SEQ_SET)) conv.unstable = true;
    const sinceFirstUs = ctx.t - conv.tsFirst;
    const sincePrevUs = ctx.t - conv.tsPrev;
    conv.tsPrev = ctx.t;

    let seq = h.seq;
    let ack = h.ack;
    let win = h.win;
    let nextSeq: number | null = null;
    if (h.haveSegLen) {
      const s = SEGMENT;
      s.frame = ctx.frame;
      s.t = ctx.t;
      s.seq = h.seq;
      s.ack = h.ack;
      s.seglen = h.payloadLen;
      s.flags = h.flags;
      s.window = h.win;
      ta = analyzeSegment(conv, fwd, rev, s, ta);
      seq = (h.seq - fwd.baseSeq) >>> 0;
      if (h.flags & TH_ACK) ack = (h.ack - rev.baseSeq) >>> 0;
      if (!(h.flags & TH_SYN)) {
        if (fwd.winScale >= 0) win = (win * 2 ** fwd.winScale) >>> 0;
        fwd.shownWindow = true;
      }
      nextSeq = (seq + h.payloadLen + (h.flags & (TH_SYN | TH_FIN) ? 1 : 0)) >>> 0;
    }
    const scaleFactor = h.flags & TH_SYN ? null : fwd.winScale >= 0 ? 2 ** fwd.winScale : fwd.winScale;
    if (h.bogusHlen) {
      // Wireshark stops after the Info's window: no SYN bookkeeping, no options.
      return result(conv, ctx.frame, seq, ack, null, win, scaleFactor, 0, ta, sinceFirstUs, sincePrevUs);
    }
    this.completeness(conv, h, isNew);
    if (isNew) conv.firstBits = completenessBits(h);
    // The first FIN seen in a conversation initiates the closing.
    if (h.flags & TH_FIN && !rev.closingInitiator) fwd.closingInitiator = true;
    if (h.flags & TH_SYN) {
      if (h.flags & TH_ACK) conv.serverPort = h.sport;
      else {
        conv.serverPort = h.dport;
        conv.tsMruSyn = ctx.t;
      }
      fwd.isFirstAck = true;
    }
    // iRTT: the first pure ACK after a SYN.
    if ((h.flags & (TH_SYN | TH_ACK)) === TH_ACK) {
      if (conv.tsMruSyn !== 0 && conv.tsFirstRtt === 0) conv.tsFirstRtt = ctx.t - conv.tsMruSyn;
      fwd.isFirstAck = false;
    }
    this.options(buf, h, fwd, rev, conv);
    // Wireshark checks the scaling after the options: not when it ran off the end before.
    if (h.flags & TH_SYN && !h.malformed) verifyWindowScaling((h.flags & TH_ACK) !== 0, fwd, rev, conv);
    return result(conv, ctx.frame, seq, ack, nextSeq, win, scaleFactor, h.options?.sackOff ? rev.baseSeq : 0, ta, sinceFirstUs, sincePrevUs);
  }

  /** tshark's second pass (-2) and Wireshark's packet list re-dissect every frame with the
   *  conversation's final state: relative numbers use the base sequence numbers as the
   *  first pass left them (a SYN/ACK with another ISN moves the base again, and is flagged
   *  again), windows are scaled with the final shift. Called in order for each TCP frame
   *  of an unstable conversation (in the others nothing it shows can differ). */
  revisit(ctx: SegmentContext, h: TcpHeader, r: TcpSegmentResult): void {
    const conv = r.conv;
    const fwd = conv.fwd(ctx.src, ctx.dst, h.sport, h.dport);
    const rev = conv.other(fwd);
    if ((h.flags & (TH_SYN | TH_ACK)) === (TH_SYN | TH_ACK) && fwd.staticFlags & TCP_S_BASE_SEQ_SET && h.seq !== fwd.baseSeq) {
      fwd.baseSeq = h.seq;
      r.ta ??= newAcked();
      r.ta.flags |= TCP_A_REUSED_PORTS;
    }
    if (h.haveSegLen) {
      r.seq = (h.seq - fwd.baseSeq) >>> 0;
      if (h.flags & TH_ACK) r.ack = (h.ack - rev.baseSeq) >>> 0;
      r.win = !(h.flags & TH_SYN) && fwd.winScale >= 0 ? (h.win * 2 ** fwd.winScale) >>> 0 : h.win;
      r.nextSeq = h.bogusHlen ? null : (r.seq + h.payloadLen + (h.flags & (TH_SYN | TH_FIN) ? 1 : 0)) >>> 0;
    }
    r.scaleFactor = h.flags & TH_SYN ? null : fwd.winScale >= 0 ? 2 ** fwd.winScale : fwd.winScale;
    if (h.options?.sackOff) r.sackBase = rev.baseSeq;
  }

  /** The options' effect on the flow: a window scale shift, the SACK blocks kept for the
   *  peer's bytes-in-flight. */
  private options(buf: Uint8Array, h: TcpHeader, fwd: TcpFlow, rev: TcpFlow, conv: TcpConversation): void {
    const o = h.options;
    if (!o) return;
    if (o.wsShift !== undefined) setScale(fwd, o.wsShift, conv);
    if (o.sackOff) {
      // SACK edges are shown relative to the peer's base sequence number; tshark's second
      // pass uses the one the peer sets later, if it has none yet.
      if (!(rev.staticFlags & TCP_S_BASE_SEQ_SET)) conv.unstable = true;
      fwd.numSackRanges = 0;
      for (let n = 1; n <= o.sackCount && n <= TCP_MAX_SACK_RANGES_STORED; n++) {
        const q = o.sackOff + (n - 1) * 8;
        fwd.numSackRanges = n;
        fwd.sackLeft[n] = (u32(buf, q) - rev.baseSeq) >>> 0;
        fwd.sackRight[n] = (u32(buf, q + 4) - rev.baseSeq) >>> 0;
      }
    }
  }

  private completeness(conv: TcpConversation, h: TcpHeader, isNew: boolean): void {
    if (isNew) {
      // A new conversation only notes a SYN (and Fast Open data on it).
      let c = 0;
      if ((h.flags & (TH_SYN | TH_ACK)) === TH_SYN) {
        c |= TCP_COMPLETENESS_SYNSENT;
        if (h.payloadLen > 0) c |= TCP_COMPLETENESS_DATA;
      }
      conv.completeness = c;
      return;
    }
    conv.completeness |= completenessBits(h);
  }
}

/** The completeness bits a segment adds to a known conversation. */
function completenessBits(h: TcpHeader): number {
  const f = h.flags;
  let c = 0;
  if ((f & (TH_SYN | TH_ACK)) === (TH_SYN | TH_ACK)) c |= TCP_COMPLETENESS_SYNACK;
  if ((f & (TH_SYN | TH_ACK)) === TH_ACK) c |= h.payloadLen > 0 ? TCP_COMPLETENESS_DATA : TCP_COMPLETENESS_ACK;
  if ((f & (TH_FIN | TH_ACK)) === (TH_FIN | TH_ACK)) c |= TCP_COMPLETENESS_FIN;
  if (f & TH_RST) c |= TCP_COMPLETENESS_RST;
  return c;
}

/** A flow's window scale changes: if its segments already showed windows, the second
 *  pass will show them differently. */
function setScale(f: TcpFlow, scale: number, conv: TcpConversation): void {
  if (f.winScale !== scale && f.shownWindow) conv.unstable = true;
  f.winScale = scale;
}

/** One shape for every result (V8 keeps the fields in the object). */
function result(
  conv: TcpConversation,
  frame: number,
  seq: number,
  ack: number,
  nextSeq: number | null,
  win: number,
  scaleFactor: number | null,
  sackBase: number,
  ta: TcpAcked | null,
  sinceFirstUs: number,
  sincePrevUs: number,
): TcpSegmentResult {
  return { conv, seq, ack, nextSeq, win, scaleFactor, sackBase, ta, sinceFirstUs, sincePrevUs, frame };
}

/** verify_tcp_window_scaling(): scaling is used only if both SYNs carried the option. */
function verifyWindowScaling(isSynAck: boolean, fwd: TcpFlow, rev: TcpFlow, conv: TcpConversation): void {
  if (fwd.winScale === -1) {
    setScale(fwd, -2, conv);
    setScale(rev, -2, conv);
  } else if (isSynAck && rev.winScale === -2) {
    setScale(fwd, -2, conv);
  }
}
