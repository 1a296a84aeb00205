// Benchmark (prints figures, asserts nothing): the packet list of 100 000 frames, a bulk
// transfer with timestamps and a random mix, the details tree of single frames, and the
// display filter on those 100 000 rows.
//   npx tsx web/src/core/packets/testing/bench.ts
import { analyze, analyzeCapture, dissectFrame } from '../index.ts';
import { compileFilter, filterRows } from '../filter.ts';
import * as B from './build.ts';
import { CaptureBuilder, TcpConn } from './capture_builder.ts';
import { randomCapture } from './random_traffic.ts';
import type { CapturedFrame } from '../types.ts';

function bulk(n: number): CapturedFrame[] {
  const cap = new CaptureBuilder();
  const k = new TcpConn(cap, { cport: 49153, sport: 9000 });
  k.handshake();
  let seq = 1;
  for (let i = 0; cap.frames.length < n; i++) {
    const ts = B.options(B.opt.nop(), B.opt.nop(), B.opt.ts(i, i));
    k.c({ seq, ack: 1, f: 'A', len: 1400, dt: 100, opts: ts, lost: i % 997 === 5 });
    seq += 1400;
    if (i % 2) k.s({ seq: 1, ack: seq, f: 'A', dt: 50, opts: ts });
  }
  return cap.frames;
}

function best(runs: number, fn: () => void): number {
  let b = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
}

const captures: [string, CapturedFrame[]][] = [
  ['bulk transfer', bulk(100_000)],
  ['random mix', randomCapture(7, { conns: 3, steps: 85_000, noise: true }).frames.slice(0, 100_000)],
];
for (const [name, frames] of captures) {
  const ms = best(5, () => analyzeCapture(frames));
  console.log(`analyzeCapture, ${name}: ${frames.length} frames in ${ms.toFixed(0)} ms (${((frames.length / ms) * 1000).toFixed(0)} frames/s)`);
}
const a = analyze(captures[0]![1]);
const ms = best(3, () => {
  for (let no = 1; no <= 1000; no++) dissectFrame(a, no);
});
console.log(`dissectFrame (details tree): ${(ms / 1000).toFixed(3)} ms per frame`);

// The first pass reads each row's fields once (filter_facts.ts); later passes, one per
// keystroke in the filter box, reuse them.
const expr = '(tcp.port == 9000 && tcp.len > 0) || ip.addr == 10.0.8.0/24 || tcp.analysis.flags';
const filter = compileFilter(expr);
if (!filter.ok) throw new Error(filter.message);
const t0 = performance.now();
const kept = filterRows(a, filter.test).length;
const firstMs = performance.now() - t0;
const laterMs = best(5, () => filterRows(a, filter.test));
console.log(
  `display filter, ${a.rows.length} rows of the bulk transfer (${kept} kept by ${expr}): first pass ${firstMs.toFixed(1)} ms, later passes ${laterMs.toFixed(1)} ms (${((a.rows.length / laterMs) * 1000).toFixed(0)} rows/s)`,
);
