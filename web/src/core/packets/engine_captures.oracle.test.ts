// Captures the engine wrote (stackscope run <scenario> --pcapng, committed as fixtures):
// real traffic of this project's stack, each link on its own, compared with tshark frame
// by frame (columns, analysis flags and values, colours) and tree by tree.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeCapture, dissectFrame } from './index.ts';
import { compareRows } from './testing/compare.ts';
import { readPcapng } from './testing/pcapng_read.ts';
import { diffLines, treeLines, tsharkLines } from './testing/tree_compare.ts';
import { runTshark, runTsharkVerbose } from './testing/tshark.ts';

const FIXTURES = ['arduino-slip.pcapng', 'nfc-bridge-1080.pcapng', 'ethernet-bulk-lossy-head.pcapng'];

describe('engine captures against tshark', () => {
  for (const name of FIXTURES) {
    const ifaces = readPcapng(new Uint8Array(readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url))));
    for (const [i, iface] of ifaces.entries()) {
      it(`${name}, link ${i} (${iface.name || 'unnamed'}): packet list`, () => {
        expect(iface.frames.length).toBeGreaterThan(0);
        expect(compareRows(analyzeCapture(iface.frames), runTshark(iface.frames))).toEqual([]);
      });
      it(`${name}, link ${i}: details trees`, () => {
        const a = analyze(iface.frames);
        const theirs = runTsharkVerbose(iface.frames);
        const diffs: string[] = [];
        for (let no = 1; no <= iface.frames.length; no++) {
          const d = diffLines(treeLines(dissectFrame(a, no).tree), tsharkLines(theirs[no - 1] ?? ''));
          if (d.length) diffs.push(`#${no}: ${d.slice(0, 4).join(' | ')}`);
        }
        expect(diffs).toEqual([]);
      });
    }
  }

  it('the bulk transfer raises the flags a lossy link should', () => {
    const [eth] = readPcapng(new Uint8Array(readFileSync(new URL('./testing/fixtures/ethernet-bulk-lossy-head.pcapng', import.meta.url))));
    const flags = new Set(analyzeCapture(eth!.frames).flatMap((r) => r.flags));
    expect(flags).toContain('tcp.analysis.duplicate_ack');
    expect(flags).toContain('tcp.analysis.fast_retransmission');
  });
});
