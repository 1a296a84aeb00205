// A bridge with channel sensing (the NFC paper's PTx, 5.3.1) holds what it forwards into a
// busy NFC module and sends it as the module frees; without it, the module discards it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from './run.ts';
import { Fate, LinkEventKind, NONE } from './trace_types.ts';

const shipped = JSON.parse(readFileSync(new URL('../scenarios/shipped/nfc-bridge-1080.json', import.meta.url), 'utf8'));

/** The shipped session with a 3000-byte response: two full segments the server sends at once (the third waits for Nagle). */
function scenario(sensing: boolean): string {
  const s = structuredClone(shipped);
  s.bridges = [{ name: 'ptx', channel_sensing: sensing }];
  s.hosts[1].stack.tcp_rto_initial_ms = 5000; // no RTO within the exchange
  s.apps[0].rounds = s.apps[1].rounds = [{ req: 10, resp: 3000 }];
  return JSON.stringify(s);
}

async function ptxFrames(sensing: boolean) {
  const r = await runScenario(scenario(sensing));
  const nfc = r.world.links.findIndex((l) => l.name === 'nfc');
  const busy = r.world.drop_reasons.indexOf('DROP_NFC_MODULE_BUSY');
  // Frames the bridge forwarded onto the NFC link (dir 1: from the PTx to the appliance).
  const frames = r.trace.frames.filter((f) => f.link === nfc && f.dir === 1 && f.parent !== NONE);
  const frees = r.trace.linkEvents.filter((e) => e.link === nfc && e.dir === 1 && e.kind === LinkEventKind.ModuleFree);
  return { frames, frees, busy };
}

describe('channel sensing at a bridge', () => {
  it('without it, the second segment meets the busy module and is discarded', async () => {
    const { frames, busy } = await ptxFrames(false);
    const big = frames.filter((f) => f.bytes.length > 500);
    expect(big.length).toBeGreaterThanOrEqual(2);
    expect(big[1]!.fate).toBe(Fate.Dropped);
    expect(big[1]!.reason).toBe(busy);
  });

  it('with it, the segment waits in the bridge and leaves the instant the module is free', async () => {
    const { frames, frees } = await ptxFrames(true);
    expect(frames.every((f) => f.fate === Fate.Delivered)).toBe(true);
    const big = frames.filter((f) => f.bytes.length > 500);
    expect(big.length).toBe(3);
    // held: sent later than it reached the bridge, at a module-free instant
    expect(frees.map((e) => e.time)).toContain(big[1]!.tSent);
    expect(big[1]!.tSent).toBeGreaterThan(big[0]!.tEnd - 1);
  });
});
