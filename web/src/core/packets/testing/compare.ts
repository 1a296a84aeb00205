// Frame-by-frame comparison of our packet list with tshark's, as readable differences.
import type { PacketRow } from '../types.ts';
import type { TsharkRow } from './tshark.ts';

const secs = (s: number | undefined): string => (s === undefined ? '' : s.toFixed(9));
const num = (n: number | undefined): string => (n === undefined ? '' : String(n));

/** Our values in tshark's -T fields format, for the fields of tshark.ts VALUE_FIELDS. */
export function ourValues(r: PacketRow): Partial<Record<keyof TsharkRow['values'], string>> {
  const t = r.tcp;
  const v: Partial<Record<keyof TsharkRow['values'], string>> = {
    'icmp.resp_in': num(r.icmp?.respIn),
    'icmp.resp_to': num(r.icmp?.respTo),
  };
  if (!t) return v;
  return {
    ...v,
    'tcp.stream': String(t.stream),
    'tcp.seq': String(t.seqRel),
    'tcp.ack': String(t.ackRel),
    'tcp.window_size': String(t.win),
    'tcp.analysis.acks_frame': num(t.acksFrame),
    'tcp.analysis.ack_rtt': secs(t.ackRttS),
    'tcp.analysis.bytes_in_flight': num(t.bytesInFlight),
    'tcp.analysis.rto': secs(t.rtoS),
    'tcp.analysis.rto_frame': num(t.rtoFrame),
    'tcp.analysis.duplicate_ack_num': num(t.dupAckNum),
    'tcp.analysis.duplicate_ack_frame': num(t.dupAckFrame),
  };
}

export interface CompareOptions {
  /** also compare the values of VALUE_FIELDS (default true) */
  values?: boolean;
  colour?: boolean;
}

/** Differences between our rows and tshark's, one line each ("#5 info: ours ... tshark ..."). */
export function compareRows(ours: readonly PacketRow[], theirs: readonly TsharkRow[], o: CompareOptions = {}): string[] {
  const diffs: string[] = [];
  if (ours.length !== theirs.length) diffs.push(`frame count: ours ${ours.length}, tshark ${theirs.length}`);
  const n = Math.min(ours.length, theirs.length);
  for (let i = 0; i < n; i++) {
    const a = ours[i]!;
    const b = theirs[i]!;
    const d = (what: string, x: string, y: string): void => {
      if (x !== y) diffs.push(`#${a.no} ${what}: ours ${JSON.stringify(x)} tshark ${JSON.stringify(y)}`);
    };
    d('protocol', a.protocol, b.protocol);
    d('info', a.info, b.info);
    d('source', a.source, b.source);
    d('destination', a.destination, b.destination);
    d('length', String(a.length), String(b.length));
    const order = (f: string[]): string => [...f].sort().join(' ');
    d('flags', order(a.flags), order(b.flags));
    if (o.colour !== false) d('colour', a.colour.name, b.colour);
    if (o.values !== false) {
      const mine = ourValues(a);
      for (const [k, v] of Object.entries(mine)) {
        // tshark prints every occurrence: compare frames with a single TCP/ICMP header only.
        const theirsV = b.values[k as keyof TsharkRow['values']];
        if (theirsV.includes(',')) continue;
        if (k === 'tcp.len' || (k.startsWith('tcp.') && !a.tcp)) continue;
        // After a bogus header length Wireshark stops before the ack and window fields.
        if ((k === 'tcp.ack' || k === 'tcp.window_size') && a.info.includes('bogus TCP header length')) continue;
        d(k, v ?? '', theirsV);
      }
    }
  }
  return diffs;
}
