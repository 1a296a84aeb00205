// A ping's size against the hosts' datagram buffers: the size the sender builds
// (ip_max_datagram) and, when the link carries the datagram in fragments, what the other end
// reassembles (ip_reass_max), both ways. validate.ts and the engine refuse the same
// scenarios with the same message.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { Engine, EngineScenarioError } from '../engine/engine.ts';
import { validateScenario } from './validate.ts';

const minimal = (): Record<string, any> => JSON.parse(readFileSync(new URL('./testdata/good/minimal.json', import.meta.url), 'utf8')) as Record<string, any>;

/** minimal.json (pc and mcu on serial0, MTU 1500) with a ping from pc of `size` bytes. */
function pinging(size: number, to = 'mcu'): Record<string, any> {
  const d = minimal();
  d.apps = [{ type: 'ping', host: 'pc', to, count: 1, size }];
  return d;
}

const errorsOf = (doc: unknown): string[] => {
  const r = validateScenario(doc);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

const BUILD = 'apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host "pc"\'s ip_max_datagram 1500';
const REQUEST =
  'apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host "mcu"\'s ip_reass_max 1500 (link "serial0", MTU 1500, carries it in fragments)';
const REPLY =
  'apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host "pc"\'s ip_reass_max 1500 (link "serial0", MTU 1500, carries the echo reply in fragments)';

describe('ping size', () => {
  it('refuses a size the sender cannot build, then one either end cannot reassemble', () => {
    const d = pinging(8000);
    expect(errorsOf(d)).toEqual([BUILD]);
    d.hosts[0].stack = { ip_max_datagram: 8028 };
    expect(errorsOf(d)).toEqual([REQUEST]);
    d.hosts[1].stack = { ip_reass_max: 8028 };
    expect(errorsOf(d)).toEqual([REPLY]);
    d.hosts[0].stack.ip_reass_max = 8028;
    expect(errorsOf(d)).toEqual([]);
  });

  it('the default buffers take 1472 bytes, the largest that fits 1500', () => {
    expect(errorsOf(pinging(1472))).toEqual([]);
    expect(errorsOf(pinging(1473))).toEqual(['apps[0].size: 1473 bytes make a datagram of 1501 bytes, larger than host "pc"\'s ip_max_datagram 1500']);
  });

  it('a datagram within the link MTU travels whole and needs no reassembly', () => {
    const d = pinging(65507);
    d.links[0].mtu = 65535;
    d.hosts[0].stack = { ip_max_datagram: 65535 };
    expect(errorsOf(d)).toEqual([]);
  });

  it("an address that is a host's is that host; a peer outside is only checked at the sender", () => {
    const d = pinging(8000, '10.0.7.2');
    d.hosts[0].stack = { ip_max_datagram: 8028 };
    expect(errorsOf(d)).toEqual([REQUEST]);
    d.apps[0].to = '10.0.7.9';
    expect(errorsOf(d)).toEqual([]);
  });

  it("the buffers have the stack's limits: ip_reass_max from 576 (RFC 1122 3.3.2), ip_max_datagram from 68", () => {
    const d = minimal();
    d.hosts[0].stack = { ip_reass_max: 575, ip_max_datagram: 67 };
    expect(errorsOf(d).sort()).toEqual([
      'hosts[0].stack.ip_max_datagram: must be an integer between 68 and 65535',
      'hosts[0].stack.ip_reass_max: must be an integer between 576 and 65535',
    ]);
  });

  it('the engine refuses the same scenarios with the same messages', async () => {
    const d = pinging(8000);
    const cases: Array<[Record<string, any>, string]> = [[structuredClone(d), BUILD]];
    d.hosts[0].stack = { ip_max_datagram: 8028 };
    cases.push([structuredClone(d), REQUEST]);
    d.hosts[1].stack = { ip_reass_max: 8028 };
    cases.push([structuredClone(d), REPLY]);
    for (const [doc, message] of cases) {
      const err = await Engine.create(JSON.stringify(doc)).then(
        (e) => (e.destroy(), null),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EngineScenarioError);
      const text = JSON.stringify(doc);
      const at = text.indexOf('"size":') + '"size":'.length + 1; // the engine points at the value
      expect((err as Error).message).toBe(`line 1, column ${at}: ${message}`);
    }
  });
});
