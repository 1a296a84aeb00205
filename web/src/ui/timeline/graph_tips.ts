// The graphs' tooltips: a segment of the time-sequence graph, the sender's state at the
// instant under the pointer.
import type { SeqSegment } from './seq_series.ts';
import type { StateSeries } from './state_series.ts';
import { valueAt } from './steps.ts';
import { formatBytes, formatDuration, formatInstant } from '../../core/run/time_format.ts';

export function segmentTip(g: SeqSegment): string[] {
  const lines = [`Seq ${g.seq}–${g.end} (${g.end - g.seq} bytes)`, `captured ${formatInstant(g.t)}`];
  if (g.retx) lines.push('retransmission');
  lines.push('click: select this frame');
  return lines;
}

/** One quantity a line: at presenter size a single line of all four is wider than the pane. */
export function stateTip(s: StateSeries, t: number, senderName: string): string[] {
  const v = (pts: StateSeries['cwnd']) => valueAt(pts, t);
  const parts: string[] = [];
  const cwnd = v(s.cwnd);
  const ssthresh = v(s.ssthresh);
  const rto = v(s.rto);
  const srtt = v(s.srtt);
  if (cwnd !== undefined) parts.push(`cwnd=${cwnd}`);
  if (ssthresh !== undefined) parts.push(`ssthresh=${formatBytes(ssthresh)}`);
  if (rto !== undefined) parts.push(`RTO=${formatDuration(rto)}`);
  if (srtt !== undefined) parts.push(`srtt=${(srtt / 1000).toFixed(3)} ms`);
  return [`${senderName} at ${formatInstant(t)}`, ...(parts.length ? parts : ['no state yet'])];
}
