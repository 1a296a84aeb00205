// Application protocols Wireshark 4.0 picks by port for the simple services of RFC 862-868.
// Checked with tshark: TCP/UDP 7 is ECHO; 9 (discard), 9000, 7891 and the ephemeral ports
// are left to "Data". The echo and daytime dissectors call a datagram a "Request" when its
// destination is the port that matched, the time dissector a "Response" when its source is.
import { field, hexBytes, plural } from './tree.ts';
import type { DetailNode } from './types.ts';

export const ECHO_PORT = 7; // RFC 862
export const DAYTIME_PORT = 13; // RFC 867
export const CHARGEN_PORT = 19; // RFC 864
export const TIME_PORT = 37; // RFC 868

export interface AppDecode {
  protocol: string;
  info: string;
}

/** A port's dissector: its Protocol column and Info, given the datagram's ports. */
function byPort(port: number, sport: number, dport: number): AppDecode | null {
  switch (port) {
    case ECHO_PORT:
      return { protocol: 'ECHO', info: dport === port ? 'Request' : 'Response' };
    case DAYTIME_PORT:
      return { protocol: 'DAYTIME', info: dport === port ? 'DAYTIME Request' : 'DAYTIME Response' };
    case CHARGEN_PORT:
      return { protocol: 'Chargen', info: 'Chargen' };
    case TIME_PORT:
      return { protocol: 'TIME', info: sport === port ? 'TIME Response' : 'TIME Request' };
    default:
      return null;
  }
}

/** The application protocol for a payload between these ports, or null for plain data:
 *  the lower port's dissector first, then the higher one's. Only called for payloads
 *  Wireshark hands to a subdissector (at least one byte). */
export function appProtocol(sport: number, dport: number): AppDecode | null {
  const lo = Math.min(sport, dport);
  const hi = Math.max(sport, dport);
  return (lo !== 0 ? byPort(lo, sport, dport) : null) ?? (hi !== 0 ? byPort(hi, sport, dport) : null);
}

const APP_NODE: Record<string, [string, string, string]> = {
  // protocol column -> [tree label, data field label, field name]
  ECHO: ['Echo', 'Echo data', 'echo'],
  DAYTIME: ['Daytime Protocol', 'Daytime', 'daytime'],
  Chargen: ['Character Generator Protocol', 'Data', 'chargen'],
  TIME: ['Time Protocol', 'Data', 'time'],
};

/** The payload's node: the service's node ("Echo", ...), or "Data (N bytes)". */
export function payloadNode(b: Uint8Array, off: number, len: number, app: AppDecode | null): DetailNode {
  const n = app ? APP_NODE[app.protocol] : undefined;
  if (n) return { ...field(n[0], off, len, n[2]), children: [field(`${n[1]}: ${hexBytes(b, off, len)}`, off, len, `${n[2]}.data`)] };
  return dataNode(b, off, len);
}

export function dataNode(b: Uint8Array, off: number, len: number): DetailNode {
  return {
    ...field(`Data (${len} ${plural(len, 'byte', 'bytes')})`, off, len, 'data'),
    children: [
      field(`Data: ${hexBytes(b, off, len)}`, off, len, 'data.data'),
      { label: `[Length: ${len}]`, range: [0, 0], generated: true, field: 'data.len' },
    ],
  };
}
