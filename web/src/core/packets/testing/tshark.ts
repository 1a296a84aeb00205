// tshark as the oracle: writes a capture to a temporary pcapng, has tshark 4.0 read it in
// two passes with default preferences (sequence analysis on, colouring rules applied) and
// returns, per frame, the columns, the tcp.analysis.* fields present and a few values.
// Throws when tshark cannot be run: oracle tests must fail, not skip, without it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedFrame } from '../types.ts';
import { writePcapng } from './pcapng.ts';

export const ANALYSIS_FLAGS = [
  'tcp.analysis.retransmission',
  'tcp.analysis.fast_retransmission',
  'tcp.analysis.spurious_retransmission',
  'tcp.analysis.out_of_order',
  'tcp.analysis.lost_segment',
  'tcp.analysis.ack_lost_segment',
  'tcp.analysis.duplicate_ack',
  'tcp.analysis.zero_window',
  'tcp.analysis.zero_window_probe',
  'tcp.analysis.zero_window_probe_ack',
  'tcp.analysis.window_full',
  'tcp.analysis.window_update',
  'tcp.analysis.keep_alive',
  'tcp.analysis.keep_alive_ack',
  'tcp.analysis.reused_ports',
] as const;

/** Values compared when the frame has one TCP header (not inside an ICMP error). */
export const VALUE_FIELDS = [
  'tcp.stream',
  'tcp.seq',
  'tcp.ack',
  'tcp.len',
  'tcp.window_size',
  'tcp.analysis.acks_frame',
  'tcp.analysis.ack_rtt',
  'tcp.analysis.bytes_in_flight',
  'tcp.analysis.rto',
  'tcp.analysis.rto_frame',
  'tcp.analysis.duplicate_ack_num',
  'tcp.analysis.duplicate_ack_frame',
  'icmp.resp_in',
  'icmp.resp_to',
] as const;

const COLUMNS = ['frame.number', '_ws.col.Protocol', '_ws.col.Info', '_ws.col.Source', '_ws.col.Destination', 'frame.len', 'frame.coloring_rule.name'] as const;

export interface TsharkRow {
  no: number;
  protocol: string;
  info: string;
  source: string;
  destination: string;
  length: number;
  colour: string;
  /** the tcp.analysis.* flag fields present, in ANALYSIS_FLAGS order */
  flags: string[];
  values: Record<(typeof VALUE_FIELDS)[number], string>;
}

export function tsharkVersion(): string {
  return execFileSync('tshark', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0]!;
}

/** Runs tshark on the frames; `keep` leaves the pcapng at that path for debugging. */
export function runTshark(frames: readonly CapturedFrame[], keep?: string): TsharkRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'stackscope-oracle-'));
  const file = keep ?? join(dir, 'capture.pcapng');
  try {
    writeFileSync(file, writePcapng(frames));
    const fields = [...COLUMNS, ...ANALYSIS_FLAGS, ...VALUE_FIELDS];
    const args = ['-2', '--color', '-r', file, '-o', 'tcp.analyze_sequence_numbers:TRUE', '-T', 'fields', '-E', 'separator=/t', '-E', 'quote=n'];
    for (const f of fields) args.push('-e', f);
    const out = execFileSync('tshark', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
    const rows: TsharkRow[] = [];
    for (const line of out.split('\n')) {
      if (!line) continue;
      const v = line.split('\t');
      const get = (i: number): string => v[i] ?? '';
      const flags: string[] = [];
      ANALYSIS_FLAGS.forEach((name, k) => {
        if (get(COLUMNS.length + k) !== '') flags.push(name);
      });
      const values = {} as TsharkRow['values'];
      VALUE_FIELDS.forEach((name, k) => {
        values[name] = get(COLUMNS.length + ANALYSIS_FLAGS.length + k);
      });
      rows.push({
        no: Number(get(0)),
        protocol: get(1),
        info: get(2),
        source: get(3),
        destination: get(4),
        length: Number(get(5)),
        colour: get(6),
        flags,
        values,
      });
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** tshark -V (two passes): the details tree of every frame as text, one string per frame. */
export function runTsharkVerbose(frames: readonly CapturedFrame[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'stackscope-oracle-'));
  const file = join(dir, 'capture.pcapng');
  try {
    writeFileSync(file, writePcapng(frames));
    const out = execFileSync('tshark', ['-2', '-r', file, '-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
    return out.split(/^(?=Frame \d+:)/m).filter((x) => x.startsWith('Frame'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
