import { describe, expect, it } from 'vitest';
import type { WorldDescription } from '../engine/trace_types.ts';
import { buildLanes } from './lifelines.ts';
import { shippedRun } from './testing/test_runs.ts';

const labels = (w: WorldDescription) => buildLanes(w).lifelines.map((l) => l.label);

function world(hosts: string[], bridges: string[], links: [string, WorldDescription['links'][number]['type'], number, number][]): WorldDescription {
  return {
    format: 1,
    seed: 1,
    duration_us: 1,
    hosts: hosts.map((name, i) => ({ name, addr: `10.0.0.${i + 1}`, prefix: 24, link: 0 })),
    bridges: bridges.map((name) => ({ name })),
    links: links.map(([name, type, a, b]) => ({ name, type, a, b, mtu: 1500, capture_interface: 0, description: '', config: { framing: 'slip' } })),
    trace_kinds: [],
    drop_reasons: [],
    drop_reason_texts: [],
    retx_causes: [],
    retx_cause_names: [],
    tcp_states: [],
  };
}

describe('lifelines', () => {
  it('arduino-slip: the two hosts, PC first', async () => {
    const run = await shippedRun('arduino-slip');
    expect(labels(run.result.world)).toEqual(['pc', 'arduino']);
  });

  it("nfc-bridge-1080: appliance, its module, the PTx's module, ptx, user", async () => {
    const w = (await shippedRun('nfc-bridge-1080')).result.world;
    const lanes = buildLanes(w);
    expect(lanes.lifelines.map((l) => l.key)).toEqual(['node:0', 'module:0:a', 'module:0:b', 'node:2', 'node:1']);
    expect(labels(w)).toEqual(['appliance', 'NFC module', 'NFC module', 'ptx', 'user']);
    expect(lanes.lifelines.map((l) => l.detail)).toEqual(['192.168.1.102', 'of appliance', 'of ptx', 'bridge', '192.168.1.202']);
    expect(lanes.ofModule(0, 'b')).toBe(2);
    expect(lanes.ofNode(1)).toBe(4);
    expect(lanes.lifelines.map((l) => l.kind)).toEqual(['host', 'module', 'module', 'bridge', 'host']);
  });

  it('ethernet-bulk-lossy: sender then receiver', async () => {
    const w = (await shippedRun('ethernet-bulk-lossy')).result.world;
    expect(labels(w)).toEqual(['sender', 'receiver']);
  });

  it('walks from the first host even when the links are listed the other way round', () => {
    // user(1) -eth- ptx(2) -nfc- appliance(0), links given b-to-a
    const w = world(
      ['appliance', 'user'],
      ['ptx'],
      [
        ['eth', 'ethernet', 2, 1],
        ['nfc', 'nfc', 2, 0],
      ],
    );
    expect(buildLanes(w).lifelines.map((l) => l.key)).toEqual(['node:0', 'module:1:b', 'module:1:a', 'node:2', 'node:1']);
  });

  it('keeps islands and external serial ports', () => {
    const w = world(
      ['a', 'b', 'c'],
      [],
      [
        ['s', 'serial', 0, 1],
        ['x', 'external', 2, -1],
      ],
    );
    expect(labels(w)).toEqual(['a', 'b', 'c', 'serial port']);
    expect(buildLanes(w).ofDevice(1)).toBe(3);
  });
});
