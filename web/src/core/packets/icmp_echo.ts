// Pairs ICMP echo requests with their replies over a capture, as packet-icmp.c does
// (transaction_start / transaction_end) in tshark's two passes:
// - a request opens a transaction keyed by the address pair and (expected reply
//   checksum, identifier, sequence number); a later identical request replaces it;
// - the first reply with that key closes it; a second reply gets nothing;
// - in the second pass a request shows "(reply in N)", or "(no response found!)", or
//   " (broadcast)" / " (multicast)" for a non-unicast destination; a reply shows
//   "(request in N)".
import { echoKey, ICMP_ECHO, ICMP_ECHOREPLY, type IcmpMessage } from './icmp.ts';

interface Transaction {
  rqstFrame: number;
  rqstTime: number;
  respFrame: number;
  respTime: number;
}

export interface EchoPairing {
  respIn?: number;
  respTo?: number;
  respTimeMs?: number;
  noResponse?: boolean;
  /** " (reply in 3)", " (request in 2)", " (no response found!)", " (broadcast)" or "" */
  suffix: string;
}

export class EchoMatcher {
  private readonly unmatched = new Map<string, Transaction>();
  private readonly matched = new Map<number, Transaction>();

  /** First pass, in capture order. `src`/`dst` are the datagram's addresses as numbers. */
  add(frame: number, t: number, src: number, dst: number, m: IcmpMessage): void {
    if (m.malformed) return;
    const pair = src < dst ? `${src}-${dst}` : `${dst}-${src}`;
    const key = `${pair}/${echoKey(m)}`;
    if (m.type === ICMP_ECHO) {
      this.unmatched.set(key, { rqstFrame: frame, rqstTime: t, respFrame: 0, respTime: 0 });
    } else if (m.type === ICMP_ECHOREPLY) {
      const tr = this.unmatched.get(key);
      if (!tr || tr.respFrame !== 0) return;
      tr.respFrame = frame;
      tr.respTime = t;
      this.matched.set(tr.rqstFrame, tr);
      this.matched.set(frame, tr);
    }
  }

  /** Second pass: the Info suffix and the fields of an echo frame. */
  pairing(frame: number, m: IcmpMessage, dst: number): EchoPairing {
    const tr = this.matched.get(frame);
    if (m.type === ICMP_ECHO) {
      if (tr && tr.rqstFrame === frame) return { respIn: tr.respFrame, suffix: ` (reply in ${tr.respFrame})` };
      if (isMulticast(dst)) return { suffix: ' (multicast)' };
      if (dst === 0xffffffff) return { suffix: ' (broadcast)' };
      return { noResponse: true, suffix: ' (no response found!)' };
    }
    if (m.type === ICMP_ECHOREPLY && tr && tr.respFrame === frame) {
      return { respTo: tr.rqstFrame, respTimeMs: (tr.respTime - tr.rqstTime) / 1000, suffix: ` (request in ${tr.rqstFrame})` };
    }
    return { suffix: '' };
  }
}

/** 224.0.0.0/4 (RFC 5771). */
function isMulticast(a: number): boolean {
  return a >>> 28 === 0xe;
}
