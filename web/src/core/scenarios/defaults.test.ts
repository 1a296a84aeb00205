import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { applyDefaults, scenarioSchema, schemaDefault } from './defaults.ts';
import { formatErrors } from './errors.ts';
import type { Scenario } from './types.ts';
import { validateScenario } from './validate.ts';

const load = (rel: string): Scenario => {
  const r = validateScenario(JSON.parse(readFileSync(new URL(`./testdata/${rel}`, import.meta.url), 'utf8')));
  if (!r.ok) throw new Error(formatErrors(r.errors, rel));
  return r.scenario;
};

type Schema = Record<string, any>;
const defs = scenarioSchema.$defs as Record<string, Schema>;

// Every property with a `default` in a schema object, after following $ref.
function defaulted(def: string): string[] {
  const props = defs[def]!.properties as Record<string, Schema>;
  return Object.entries(props)
    .filter(([, p]) => 'default' in p || (p.$ref && 'default' in defs[p.$ref.split('/').pop()]!))
    .map(([k]) => k);
}

describe('applyDefaults', () => {
  it('fills every field that has a default, down to the stack and the fault match', () => {
    const s = load('good/minimal.json');
    s.links[0]!.faults = [
      { action: 'drop', p: 0.1 },
      { action: 'delay', nth: 2, delay_us: 5 },
    ];
    s.apps = [{ type: 'reqresp_server', host: 'mcu', rounds: [{ req: 1, resp: 2 }] }];
    const r = applyDefaults(s);
    expect(r).toMatchObject({ description: '', seed: 1, bridges: [], capture: ['serial0'] });
    expect(Object.keys(r.hosts[0]!.stack).sort()).toEqual(Object.keys(defs.stack!.properties).sort());
    expect(Object.keys(r.hosts[0]!.stack.tcp_nfc).sort()).toEqual(Object.keys(defs.tcpNfc!.properties).sort());
    expect(r.hosts[0]!.stack).toMatchObject({ ip_ttl: 64, tcp_rto_min_ms: 1000, tcp_rto_max_ms: 60000, tcp_cc: 'newreno' });
    expect(r.links[0]).toMatchObject({ bits_per_char: 10, framing: 'slip', leading_end: true, qlen: 10, mtu: 1500, latency_us: 0 });
    for (const k of defaulted('serialLink')) expect(r.links[0]).toHaveProperty(k);
    expect(r.links[0]!.faults[0]).toEqual({ action: 'drop', p: 0.1, dir: 'both', match: {} });
    expect(r.links[0]!.faults[1]).toEqual({ action: 'delay', nth: 2, count: 1, delay_us: 5, dir: 'both', match: {} });
    expect(r.apps[0]).toEqual({ type: 'reqresp_server', host: 'mcu', start_ms: 0, port: 7891, rounds: [{ req: 1, resp: 2, think_ms: 0, split: 0 }] });
  });

  it('takes per-type defaults from the branch of the app or link type', () => {
    const s = load('good/minimal.json');
    s.apps = [
      { type: 'udp_echo_server', host: 'mcu' },
      { type: 'udp_discard_server', host: 'mcu' },
      { type: 'ping', host: 'pc', to: 'mcu' },
    ];
    const [echo, discard, ping] = applyDefaults(s).apps;
    expect(echo).toMatchObject({ port: 7 });
    expect(discard).toMatchObject({ port: 9 });
    expect(ping).toEqual({ type: 'ping', host: 'pc', to: 'mcu', start_ms: 0, count: 4, size: 56, interval_ms: 1000, timeout_ms: 10000 });
  });

  it('gives an NFC link the chunk size of its rate', () => {
    const s = load('good/minimal.json');
    s.links = [{ name: 'nfc', type: 'nfc', a: 'pc', b: 'mcu', rate_kbps: 424 }];
    const r = applyDefaults(s);
    expect(r.links[0]).toMatchObject({ chunk_bytes: 30, chunk_overhead: 4, slot_period_us: 10000, slot_air_us: 1500, lead_us: 2000 });
    s.links = [{ name: 'nfc', type: 'nfc', a: 'pc', b: 'mcu' }];
    expect(applyDefaults(s).links[0]).toMatchObject({ rate_kbps: 212, chunk_bytes: 14 });
  });

  it('keeps what is written and leaves the input alone', () => {
    const s = load('good/rich.json');
    const before = structuredClone(s);
    const r = applyDefaults(s);
    expect(s).toEqual(before);
    expect(r).toMatchObject(before as object);
    expect(r.capture).toEqual(['nfc', 'serial0']);
  });

  it('returns a scenario that is still valid', () => {
    for (const f of ['good/minimal.json', 'good/rich.json']) {
      const v = validateScenario(applyDefaults(load(f)));
      expect(v.ok ? [] : v.errors).toEqual([]);
    }
  });

  it('schemaDefault reads the schema', () => {
    expect(schemaDefault('stack', 'tcp_delack_ms')).toBe(200);
    expect(schemaDefault('tcpEchoServerApp', 'port')).toBe(7);
    expect(schemaDefault('nfcLink', 'chunk_bytes')).toBeUndefined();
  });
});

// Compile-time: the resolved types narrow on `type` and have no optional fields left
// where a default exists (tsc checks this file with the rest of web/src).
export function resolvedTypesNarrow(r: ReturnType<typeof applyDefaults>): number {
  let n = r.seed + r.hosts[0]!.stack.tcp_nfc.round_ms;
  for (const l of r.links) {
    if (l.type === 'nfc') n += l.chunk_bytes + l.faults.length;
    if (l.type === 'serial') n += typeof l.latency_us === 'number' ? l.latency_us : l.latency_us[0];
    for (const f of l.faults) n += ('p' in f ? f.p : f.nth + f.count) + (f.match.port ?? 0);
  }
  for (const a of r.apps) {
    if (a.type === 'reqresp_client') n += a.local_port + a.rounds[0]!.think_ms;
    if (a.type === 'ping') n += a.count;
  }
  return n;
}
