// tshark as the outside oracle: which TCP analysis flags Wireshark sets on each frame of a
// capture file, and whether it finds anything malformed. Fails loudly when tshark is
// missing: the project's setup installs it.
import { execFileSync } from 'node:child_process';

/** Wireshark's TCP analysis flags (its expert items); other tcp.analysis.* fields are values. */
const FLAGS = new Set(
  [
    'retransmission',
    'fast_retransmission',
    'spurious_retransmission',
    'out_of_order',
    'lost_segment',
    'ack_lost_segment',
    'duplicate_ack',
    'zero_window',
    'zero_window_probe',
    'zero_window_probe_ack',
    'window_full',
    'window_update',
    'keep_alive',
    'keep_alive_ack',
    'reused_ports',
  ].map((f) => `tcp.analysis.${f}`),
);

function tshark(file: string, extra: string[]): string {
  return execFileSync('tshark', ['-r', file, '-o', 'tcp.analyze_sequence_numbers:TRUE', ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** For each frame (in order), the sorted tcp.analysis.* flag names tshark set. Read from
 *  PDML, where every field is an element (JSON output folds repeated keys). */
export function tsharkFlags(file: string): string[][] {
  const pdml = tshark(file, ['-T', 'pdml']);
  return pdml
    .split('<packet>')
    .slice(1)
    .map((packet) => {
      const found = new Set<string>();
      for (const m of packet.matchAll(/<field name="(tcp\.analysis\.[a-z_]+)"/g)) if (FLAGS.has(m[1]!)) found.add(m[1]!);
      return [...found].sort();
    });
}

/** Frame numbers tshark marks malformed, or with an expert error (a bad checksum is a warning). */
export function tsharkMalformed(file: string): string[] {
  return tshark(file, ['-Y', '_ws.malformed || _ws.expert.severity == "Error"', '-T', 'fields', '-e', 'frame.number']).split('\n').filter(Boolean);
}

export function tsharkFrameCount(file: string): number {
  return tshark(file, ['-T', 'fields', '-e', 'frame.number']).split('\n').filter(Boolean).length;
}

/** tshark's Protocol and Info columns for each frame (two passes, so "reply in N" is known). */
export function tsharkColumns(file: string): { protocol: string; info: string }[] {
  return tshark(file, ['-2', '-T', 'fields', '-E', 'separator=/t', '-e', '_ws.col.Protocol', '-e', '_ws.col.Info'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [protocol = '', info = ''] = line.split('\t');
      return { protocol, info };
    });
}

/** Each frame's pcapng comment, '' when it has none. */
export function tsharkComments(file: string): string[] {
  return tshark(file, ['-T', 'fields', '-e', 'frame.comment']).split('\n').slice(0, -1);
}

/** For each frame: the layers tshark found (frame.protocols, "eth:ethertype:ip:tcp"), its
 *  length, Protocol and Info. */
export function tsharkLayers(file: string): { protocols: string; length: number; protocol: string; info: string }[] {
  return tshark(file, ['-T', 'fields', '-E', 'separator=/t', '-e', 'frame.protocols', '-e', 'frame.len', '-e', '_ws.col.Protocol', '-e', '_ws.col.Info'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [protocols = '', length = '', protocol = '', info = ''] = line.split('\t');
      return { protocols, length: Number(length), protocol, info };
    });
}
