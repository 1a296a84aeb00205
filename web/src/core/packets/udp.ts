// UDP header, RFC 768, with Wireshark's length checks and Info wording (packet-udp.c).
import { hex16, u16 } from './bytes.ts';
import { expertNode, field, generated } from './tree.ts';
import type { DetailNode } from './types.ts';

// Header field offsets, RFC 768.
export const UDP_OFF_SRC_PORT = 0;
export const UDP_OFF_DST_PORT = 2;
export const UDP_OFF_LEN = 4;
export const UDP_OFF_CHKSUM = 6;
export const UDP_HLEN = 8;

export interface UdpHeader {
  off: number;
  /** bytes from the header to the end of the datagram */
  avail: number;
  /** fewer than 4 bytes: Wireshark throws before it names the protocol */
  noPorts: boolean;
  sport: number;
  dport: number;
  /** the length field, or -1 when it was not there */
  length: number;
  checksum: number;
  /** null: not checked (not yet, zero checksum = RFC 768 "no checksum", or data missing) */
  checksumOk: boolean | null;
  /** Info words Wireshark adds for a bad length field */
  badLength?: string;
  payloadOff: number;
  /** payload bytes present (what a subdissector gets) */
  payloadLen: number;
  malformed: boolean;
}

/** Reads the UDP header at `off` (the checksum is verified by checksums.ts, on demand). */
export function parseUdp(b: Uint8Array, off: number, avail: number, inError: boolean): UdpHeader {
  const h: UdpHeader = {
    off,
    avail,
    noPorts: avail < 4,
    sport: 0,
    dport: 0,
    length: -1,
    checksum: 0,
    checksumOk: null,
    payloadOff: off + UDP_HLEN,
    payloadLen: 0,
    malformed: true,
  };
  if (avail < 4) return h;
  h.sport = u16(b, off + UDP_OFF_SRC_PORT);
  h.dport = u16(b, off + UDP_OFF_DST_PORT);
  if (avail < 6) return h;
  h.length = u16(b, off + UDP_OFF_LEN);
  if (h.length < UDP_HLEN) {
    h.badLength = ` [BAD UDP LENGTH ${h.length} < 8]`;
    h.malformed = false;
    return h;
  }
  if (!inError && h.length > avail) h.badLength = ` [BAD UDP LENGTH ${h.length} > IP PAYLOAD LENGTH]`;
  if (avail < UDP_HLEN) return h;
  h.checksum = u16(b, off + UDP_OFF_CHKSUM);
  h.payloadLen = Math.min(h.length, avail) - UDP_HLEN;
  // A length field promising a payload of which no byte is there ends in an exception
  // (tshark 4.0); with some bytes there, the port's dissector gets what there is.
  h.malformed = h.length > UDP_HLEN && h.payloadLen === 0;
  return h;
}

/** Info as Wireshark writes it for a UDP datagram no application dissector claimed. */
export function udpInfo(h: UdpHeader): string {
  let s = `${h.sport} \u2192 ${h.dport}`;
  if (h.length < 0) return s + '[Malformed Packet]';
  if (h.badLength) s += h.badLength;
  if (h.length < UDP_HLEN) return s;
  s += ` Len=${h.length - UDP_HLEN}`;
  if (h.malformed) s += '[Malformed Packet]';
  return s;
}

export function udpNode(h: UdpHeader, stream: number | undefined, times?: [number, number]): DetailNode {
  const kids: DetailNode[] = [field(`Source Port: ${h.sport}`, h.off, 2, 'udp.srcport'), field(`Destination Port: ${h.dport}`, h.off + 2, 2, 'udp.dstport')];
  if (h.length >= 0) {
    const bogus = h.length < UDP_HLEN ? ' (bogus, must be >= 8)' : h.badLength ? ` (bogus, payload length ${h.avail})` : '';
    const ln = field(`Length: ${h.length}${bogus}`, h.off + UDP_OFF_LEN, 2, 'udp.length');
    if (h.badLength) {
      const msg = h.length < UDP_HLEN ? `Bad length value ${h.length} < 8` : `Bad length value ${h.length} > IP payload length`;
      ln.children = [expertNode({ severity: 'error', group: 'malformed', message: msg })];
    }
    kids.push(ln);
  }
  if (h.avail >= UDP_HLEN && h.length >= UDP_HLEN) {
    let status = 'Unverified';
    let text = '[unverified]';
    if (h.checksum === 0) {
      text = '[zero-value ignored]';
      status = 'Not present';
    } else if (h.checksumOk !== null) {
      text = h.checksumOk ? '[correct]' : '[incorrect]';
      status = h.checksumOk ? 'Good' : 'Bad';
    }
    const ck = field(`Checksum: ${hex16(h.checksum)} ${text}`, h.off + UDP_OFF_CHKSUM, 2, 'udp.checksum');
    if (h.checksumOk === false) ck.children = [expertNode({ severity: 'error', group: 'checksum', message: 'Bad checksum' })];
    kids.push(ck, generated(`Checksum Status: ${status}`, 'udp.checksum.status'));
    if (stream !== undefined) kids.push(generated(`Stream index: ${stream}`, 'udp.stream'));
    if (times && h.length > UDP_HLEN) {
      const secs = (us: number): string => `${(us / 1e6).toFixed(9)} seconds`;
      kids.push({
        label: '[Timestamps]',
        range: [0, 0],
        generated: true,
        children: [
          generated(`Time since first frame: ${secs(times[0])}`, 'udp.time_relative'),
          generated(`Time since previous frame: ${secs(times[1])}`, 'udp.time_delta'),
        ],
      });
    }
    if (h.payloadLen > 0) kids.push(field(`UDP payload (${h.payloadLen} byte${h.payloadLen === 1 ? '' : 's'})`, h.payloadOff, h.payloadLen, 'udp.payload'));
  }
  const label = `User Datagram Protocol, Src Port: ${h.sport}, Dst Port: ${h.dport}`;
  return { ...field(label, h.off, Math.min(UDP_HLEN, h.avail), 'udp'), children: kids };
}
