// tshark -V as the oracle for the details tree: for every frame of the named captures and
// of random traffic, our tree's lines (labels, nesting) equal tshark's, from "Raw packet
// data" on, except checksum lines (we verify checksums, Wireshark by default does not).
import { describe, expect, it } from 'vitest';
import { analyze, dissectFrame } from './index.ts';
import { CAPTURES } from './testing/captures.ts';
import { cutCapture, randomCapture } from './testing/random_traffic.ts';
import { diffLines, treeLines, tsharkLines } from './testing/tree_compare.ts';
import { runTsharkVerbose } from './testing/tshark.ts';
import type { CapturedFrame } from './types.ts';

/** Frames whose trees we knowingly draw differently (see the module's notes). */
const KNOWN: Record<string, number[]> = {};

function differences(name: string, frames: CapturedFrame[]): string[] {
  const a = analyze(frames);
  const theirs = runTsharkVerbose(frames);
  const out: string[] = [];
  for (let no = 1; no <= frames.length; no++) {
    if (KNOWN[name]?.includes(no)) continue;
    const d = diffLines(treeLines(dissectFrame(a, no).tree), tsharkLines(theirs[no - 1] ?? ''));
    if (d.length) out.push(`${name} #${no}:\n  ${d.slice(0, 6).join('\n  ')}`);
  }
  return out;
}

describe('details tree against tshark -V', () => {
  for (const [name, make] of Object.entries(CAPTURES)) {
    it(`matches tshark -V on ${name}`, () => {
      expect(differences(name, make())).toEqual([]);
    });
  }

  it('matches tshark -V on random traffic (8 seeds)', () => {
    const all: string[] = [];
    for (let seed = 1; seed <= 8; seed++) all.push(...differences(`seed${seed}`, randomCapture(seed, { conns: 2, steps: 80, noise: true }).frames));
    expect(all).toEqual([]);
  });

  it('matches tshark -V on random traffic with frames cut short (8 seeds)', () => {
    const all: string[] = [];
    for (let seed = 1; seed <= 8; seed++) all.push(...differences(`cut${seed}`, cutCapture(seed)));
    expect(all).toEqual([]);
  });
});
