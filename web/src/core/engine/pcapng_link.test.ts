// Cutting one link's pcapng from the engine's file: the link's frames and nothing else,
// the engine's blocks unchanged but for the Interface ID, and a one-line error naming the
// byte for a file that is not the engine's.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPcapng } from '../packets/testing/pcapng_read.ts';
import { runScenario, type RunResult } from './run.ts';
import { linkPcapng, pcapngInterface } from './pcapng_link.ts';

let r: RunResult;
beforeAll(async () => {
  r = await runScenario(readFileSync(new URL('../scenarios/shipped/nfc-bridge-1080.json', import.meta.url), 'utf8'));
});

describe('linkPcapng', () => {
  it("holds the link's frames alone, in order, as interface 0 with the link's name", () => {
    r.world.links.forEach((l, i) => {
      const [iface, ...more] = readPcapng(linkPcapng(r.pcapng, r.world, i));
      expect(more).toEqual([]);
      expect(iface!.name).toBe(l.name);
      const frames = r.trace.frames.filter((f) => f.link === i);
      expect(iface!.frames.length).toBe(frames.length);
      // (the bytes: the next test holds each block to the engine's own)
      expect(iface!.frames.map((f) => f.timeUs)).toEqual(frames.map((f) => f.tSent));
    });
  });

  it("keeps the engine's blocks byte for byte (link type, comments, flags), the Interface ID set to 0", () => {
    const nfc = r.world.links.find((l) => l.name === 'nfc')!;
    expect(nfc.capture_interface).toBe(1);
    const cut = pcapngInterface(r.pcapng, 1);
    const text = Buffer.from(cut).toString('latin1');
    expect(text).toMatch(/forwarded by ptx/);
    expect(text).toMatch(/retransmission \(RTO expired\) of frame \d+/);
    // every block of the cut is one of the original's, the EPBs differing in bytes 8..11 only
    const original = Buffer.from(r.pcapng);
    let epbs = 0;
    for (let o = 0; o < cut.length;) {
      const dv = new DataView(cut.buffer, cut.byteOffset + o);
      const len = dv.getUint32(4, true);
      const block = Buffer.from(cut.subarray(o, o + len));
      if (dv.getUint32(0, true) === 6) {
        expect(dv.getUint32(8, true)).toBe(0);
        block.writeUInt32LE(1, 8);
        epbs++;
      }
      expect(original.indexOf(block)).toBeGreaterThanOrEqual(0);
      o += len;
    }
    expect(epbs).toBe(r.trace.frames.filter((f) => f.link === r.world.links.indexOf(nfc)).length);
  });

  it('refuses a link the scenario does not capture, naming it', () => {
    const world = { links: r.world.links.map((l) => (l.name === 'nfc' ? { ...l, capture_interface: -1 } : l)) };
    expect(() => linkPcapng(r.pcapng, world, 0)).toThrow("link nfc is not in the scenario's capture list");
    expect(() => linkPcapng(r.pcapng, r.world, 5)).toThrow('no link 5 (the run has 2)');
  });

  it('names the byte of a file that is not one section of SHB, IDB and EPB blocks', () => {
    expect(() => pcapngInterface(r.pcapng, 2)).toThrow('pcapng: no interface 2 (the file has 2)');
    expect(() => pcapngInterface(r.pcapng.subarray(0, r.pcapng.length - 2), 0)).toThrow(/^pcapng: byte \d+: (bad Block Total Length|a block cut short)/);
    expect(() => pcapngInterface(new Uint8Array(0), 0)).toThrow('pcapng: byte 0: a block cut short (0 bytes left)');
    const shbLen = new DataView(r.pcapng.buffer, r.pcapng.byteOffset).getUint32(4, true);
    expect(() => pcapngInterface(r.pcapng.subarray(shbLen), 0)).toThrow('pcapng: byte 0: not a Section Header Block');
    const twice = new Uint8Array([...r.pcapng.subarray(0, shbLen), ...r.pcapng]);
    expect(() => pcapngInterface(twice, 0)).toThrow(`pcapng: byte ${shbLen}: a second section (the engine writes one)`);
    const odd = new Uint8Array(r.pcapng);
    new DataView(odd.buffer).setUint32(shbLen, 5, true); // an Interface Statistics Block
    expect(() => pcapngInterface(odd, 0)).toThrow(`pcapng: byte ${shbLen}: block type 0x5 is not one the engine writes (SHB, IDB, EPB)`);
    const big = new Uint8Array(r.pcapng);
    new DataView(big.buffer).setUint32(8, 0x4d3c2b1a, true);
    expect(() => pcapngInterface(big, 0)).toThrow('pcapng: byte 8: not a little-endian section');
  });
});
