// tshark 4.0 as the oracle: for every named capture and for random traffic, our packet list
// must equal tshark's frame by frame: Protocol, Info, Source, Destination, Length, the
// colouring rule, the tcp.analysis.* flags present, and the analysis values (stream,
// relative seq/ack, window, acks_frame, ack_rtt, bytes_in_flight, rto, rto_frame,
// duplicate ACK number and frame, ICMP request/response frames). tshark must be installed
// (scripts/setup.sh does it): without it these tests fail, they are not skipped.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from './index.ts';
import { CAPTURES } from './testing/captures.ts';
import { compareRows } from './testing/compare.ts';
import { cutCapture, randomCapture } from './testing/random_traffic.ts';
import { ANALYSIS_FLAGS, runTshark, tsharkVersion } from './testing/tshark.ts';

describe('tshark oracle', () => {
  it('tshark 4.0 is installed', () => {
    expect(tsharkVersion()).toMatch(/^TShark \(Wireshark\) 4\.0\./);
  });

  for (const [name, make] of Object.entries(CAPTURES)) {
    it(`matches tshark on ${name}`, () => {
      const frames = make();
      const diffs = compareRows(analyzeCapture(frames), runTshark(frames));
      expect(diffs).toEqual([]);
    });
  }

  it('the named captures raise every analysis flag', () => {
    const seen = new Set<string>();
    for (const make of Object.values(CAPTURES)) for (const r of runTshark(make())) for (const f of r.flags) seen.add(f);
    expect([...seen].sort()).toEqual([...ANALYSIS_FLAGS].sort());
  });

  it('matches tshark on random single-connection traffic (40 seeds)', () => {
    const bad: string[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const frames = randomCapture(seed, { steps: 80, noise: true }).frames;
      const diffs = compareRows(analyzeCapture(frames), runTshark(frames));
      if (diffs.length) bad.push(`seed ${seed}: ${diffs.slice(0, 3).join('; ')}`);
    }
    expect(bad).toEqual([]);
  });

  it('matches tshark on random traffic with frames cut short (20 seeds)', () => {
    const bad: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const frames = cutCapture(seed);
      const diffs = compareRows(analyzeCapture(frames), runTshark(frames));
      if (diffs.length) bad.push(`seed ${seed}: ${diffs.slice(0, 3).join('; ')}`);
    }
    expect(bad).toEqual([]);
  });

  it('matches tshark on random interleaved connections (10 seeds)', () => {
    const bad: string[] = [];
    for (let seed = 1000; seed < 1010; seed++) {
      const frames = randomCapture(seed, { conns: 3, steps: 300, noise: true }).frames;
      const diffs = compareRows(analyzeCapture(frames), runTshark(frames));
      if (diffs.length) bad.push(`seed ${seed}: ${diffs.slice(0, 3).join('; ')}`);
    }
    expect(bad).toEqual([]);
  });
});
