// Which TCP connection the graphs show: the TCP streams of a capture (Wireshark's
// tcp.stream numbers), each with its two ends and the payload each end sent, and the
// default choice: the stream of the selected frame, else the first stream of the capture
// point, in the direction that carries the data.
import type { PacketRow } from '../../core/packets/index.ts';

export interface Endpoint {
  addr: string;
  port: number;
}

export interface StreamInfo {
  stream: number;
  /** the end that sent the stream's first segment (the client, usually) */
  a: Endpoint;
  b: Endpoint;
  bytesAB: number;
  bytesBA: number;
}

export function sameEndpoint(row: PacketRow, e: Endpoint): boolean {
  return row.source === e.addr && row.tcp?.srcPort === e.port;
}

export function tcpStreams(rows: readonly PacketRow[]): StreamInfo[] {
  const byStream = new Map<number, StreamInfo>();
  for (const r of rows) {
    const t = r.tcp;
    if (!t) continue;
    let s = byStream.get(t.stream);
    if (!s) {
      s = { stream: t.stream, a: { addr: r.source, port: t.srcPort }, b: { addr: r.destination, port: t.dstPort }, bytesAB: 0, bytesBA: 0 };
      byStream.set(t.stream, s);
    }
    if (sameEndpoint(r, s.a)) s.bytesAB += t.len;
    else s.bytesBA += t.len;
  }
  return [...byStream.values()].sort((x, y) => x.stream - y.stream);
}

export function streamLabel(s: StreamInfo, from: 'a' | 'b'): string {
  const [x, y] = from === 'a' ? [s.a, s.b] : [s.b, s.a];
  return `stream ${s.stream}: ${x.addr}:${x.port} → ${y.addr}:${y.port}`;
}

export interface StreamChoice {
  link: number;
  stream: number;
  /** the sending end whose data the time-sequence graph shows */
  from: 'a' | 'b';
}

/** The data direction: the end that sent more payload (the A end on a tie). */
export function dataDirection(s: StreamInfo): 'a' | 'b' {
  return s.bytesBA > s.bytesAB ? 'b' : 'a';
}

/**
 * The stream of the selected frame (`selectedRow` on `selectedLink`), in the direction of
 * that frame if it carries data; otherwise the first stream of the capture point.
 */
export function defaultChoice(
  streamsOf: (link: number) => StreamInfo[],
  captureLink: number,
  selected: { link: number; row: PacketRow } | null,
): StreamChoice | null {
  const t = selected?.row.tcp;
  if (selected && t) {
    const s = streamsOf(selected.link).find((x) => x.stream === t.stream);
    if (s) {
      const fromA = sameEndpoint(selected.row, s.a);
      const from = t.len > 0 ? (fromA ? 'a' : 'b') : dataDirection(s);
      return { link: selected.link, stream: s.stream, from };
    }
  }
  const first = streamsOf(captureLink)[0];
  return first ? { link: captureLink, stream: first.stream, from: dataDirection(first) } : null;
}
