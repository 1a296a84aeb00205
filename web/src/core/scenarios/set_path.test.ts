import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { applySet, ScenarioSetError } from './set_path.ts';
import { validateScenario } from './validate.ts';

const rich = (): any => JSON.parse(readFileSync(new URL('./testdata/good/rich.json', import.meta.url), 'utf8'));

describe('applySet', () => {
  it('sets a field reached through array elements by name', () => {
    const doc = rich();
    const out = applySet(doc, 'hosts.srv.stack.tcp_rto_initial_ms=5000') as any;
    expect(out.hosts[1].stack.tcp_rto_initial_ms).toBe(5000);
    expect(validateScenario(out).ok).toBe(true);
  });

  it('reaches elements by index, and mixes both', () => {
    const out = applySet(applySet(rich(), 'links.nfc.faults.0.p=0.1'), 'apps.0.count=10') as any;
    expect(out.links[1].faults[0].p).toBe(0.1);
    expect(out.apps[0].count).toBe(10);
  });

  it('returns a new document and leaves the input alone', () => {
    const doc = rich();
    const before = structuredClone(doc);
    const out = applySet(doc, 'seed=7') as any;
    expect(out.seed).toBe(7);
    expect(doc).toEqual(before);
    expect(out.hosts).not.toBe(doc.hosts);
  });

  it('reads the value as JSON when it parses, else as a string', () => {
    const doc = rich();
    const v = (assignment: string): unknown => (applySet(doc, assignment) as any).description;
    expect(v('description=12')).toBe(12);
    expect(v('description=true')).toBe(true);
    expect(v('description=null')).toBe(null);
    expect(v('description=[1,2]')).toEqual([1, 2]);
    expect(v('description={"a":1}')).toEqual({ a: 1 });
    expect(v('description="12"')).toBe('12');
    expect(v('description=hello world')).toBe('hello world');
    expect(v('description=')).toBe('');
    expect(v('description=a=b')).toBe('a=b'); // only the first "=" splits
    expect((applySet(doc, 'links.serial0.latency_us=[5,6]') as any).links[0].latency_us).toEqual([5, 6]);
    expect((applySet(doc, 'links.serial0.framing=slip6') as any).links[0].framing).toBe('slip6');
  });

  it('creates missing object members on the way', () => {
    const doc = { version: 1, hosts: [{ name: 'pc', addr: '10.0.7.1/24' }] };
    expect(applySet(doc, 'hosts.pc.stack.tcp_nfc.round_ms=250')).toEqual({
      version: 1,
      hosts: [{ name: 'pc', addr: '10.0.7.1/24', stack: { tcp_nfc: { round_ms: 250 } } }],
    });
    expect(applySet(doc, 'seed=3')).toEqual({ ...doc, seed: 3 });
  });

  it('replaces a whole element or array', () => {
    const out = applySet(rich(), 'capture=["eth0"]') as any;
    expect(out.capture).toEqual(['eth0']);
    const out2 = applySet(rich(), 'bridges.b1={"name":"b1"}') as any;
    expect(out2.bridges[0]).toEqual({ name: 'b1' });
  });

  it('leaves type checking to the validator', () => {
    const out = applySet(rich(), 'links.serial0.baud=fast');
    const r = validateScenario(out);
    expect(r.ok ? [] : r.errors).toEqual([{ path: 'links[0].baud', message: 'must be an integer between 50 and 4000000' }]);
  });

  it('never writes through a prototype', () => {
    const out = applySet({ version: 1 }, '__proto__.polluted=1') as any;
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toContain('__proto__');
    const r = validateScenario(out);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toContain('__proto__');
  });

  const bad: Array<[string, unknown, string, RegExp]> = [
    ['a missing "="', rich(), 'seed', /expected path=value/],
    ['an empty path', rich(), '=5', /empty part/],
    ['an empty segment', rich(), 'hosts..addr=1', /empty part/],
    ['a path through a number', rich(), 'seed.x=1', /seed is the number 4294967295, which has no field "x"/],
    ['a path through a string', rich(), 'hosts.pc.addr.x=1', /hosts\.pc\.addr is the string "10\.0\.0\.1\/24"/],
    ['an unknown element name', rich(), 'links.nfx.baud=1', /links has no element named "nfx" \(names: serial0, nfc, eth0, port\)/],
    ['an index out of range', rich(), 'hosts.3.addr=x', /hosts has no element 3; it has 3 \(0 \.\. 2\)/],
    ['an index into an empty array', rich(), 'links.port.faults.0.p=1', /links\.port\.faults has no element 0; it is empty/],
    ['an index into an absent array', rich(), 'links.eth0.nope.0.p=1', /links\.eth0\.nope is absent, so it has no element 0/],
    ['a last index out of range', rich(), 'capture.5=eth0', /capture has no element 5/],
    ['a document that is not an object', [1], 'seed=1', /not a JSON object/],
  ];
  it.each(bad)('refuses %s', (_what, doc, assignment, message) => {
    expect(() => applySet(doc, assignment)).toThrow(ScenarioSetError);
    expect(() => applySet(doc, assignment)).toThrow(message);
  });
});
