// Checksum verification of a decoded frame's transport layer: TCP (RFC 9293 3.1) and UDP
// (RFC 768) over the pseudo header, ICMP (RFC 792) over the message. Done on demand, for
// the details tree or when colouring by checksum: summing every payload costs more than
// the rest of the dissection, and Wireshark verifies none of these by default (except
// ICMP's, which only shows in the tree). IPv4's header checksum is checked when parsed.
import { inetChecksum, pseudoHeaderSum } from './bytes.ts';
import type { Decoded } from './dissect.ts';
import { IP_OFF_DST, IP_OFF_SRC, IP_PROTO_TCP, IP_PROTO_UDP } from './ipv4.ts';

/** Fills checksumOk of the frame's TCP, UDP or ICMP header. `frame` holds the IPv4 header
 *  (the addresses of the pseudo header); the transport lives in d.buf. */
export function verifyChecksums(frame: Uint8Array, d: Decoded): void {
  const t = d.tcp;
  if (t && t.haveSegLen && t.stage === 'full') {
    t.checksumOk = inetChecksum(d.buf, t.off, t.avail, pseudoHeaderSum(frame, IP_OFF_SRC, IP_OFF_DST, IP_PROTO_TCP, t.avail)) === 0;
  }
  const u = d.udp;
  if (u && u.checksum !== 0 && u.length >= 8 && u.length <= u.avail) {
    u.checksumOk = inetChecksum(d.buf, u.off, u.length, pseudoHeaderSum(frame, IP_OFF_SRC, IP_OFF_DST, IP_PROTO_UDP, u.length)) === 0;
  }
  const m = d.icmp;
  if (m && !m.inError && !m.malformed) m.checksumOk = inetChecksum(d.buf, m.off, m.avail) === 0;
}
