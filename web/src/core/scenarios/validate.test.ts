import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { formatErrors } from './errors.ts';
import { parseScenario, validateScenario } from './validate.ts';

const testdata = new URL('./testdata/', import.meta.url);
const read = (rel: string): string => readFileSync(new URL(rel, testdata), 'utf8');
const load = (rel: string): unknown => JSON.parse(read(rel));

// testdata/bad-expected.json: for each file of testdata/bad/, every error it must give (the
// exact path, a part of the message), and no other. The command-line tests reuse it.
const expected = load('bad-expected.json') as Record<string, Array<{ path: string; message: string }>>;

describe('valid scenarios', () => {
  it.each(['minimal.json', 'rich.json', 'realtime.json'])('%s passes', (file) => {
    const r = parseScenario(read(`good/${file}`));
    expect(r.ok ? [] : r.errors).toEqual([]);
  });

  it('returns a copy of the scenario as written, without defaults', () => {
    const doc = load('good/minimal.json') as Record<string, unknown>;
    const r = validateScenario(doc);
    if (!r.ok) throw new Error(formatErrors(r.errors));
    expect(r.scenario).toEqual(doc);
    expect(r.scenario).not.toBe(doc);
    expect('seed' in r.scenario).toBe(false);
  });

  it('the rich scenario uses every link type, app type and fault action', () => {
    const s = load('good/rich.json') as { links: Array<{ type: string; faults?: Array<{ action: string }> }>; apps: Array<{ type: string }> };
    expect(new Set(s.links.map((l) => l.type))).toEqual(new Set(['serial', 'nfc', 'ethernet', 'external']));
    expect(new Set(s.apps.map((a) => a.type)).size).toBe(11);
    expect(new Set(s.links.flatMap((l) => (l.faults ?? []).map((f) => f.action)))).toEqual(new Set(['drop', 'corrupt', 'duplicate', 'delay']));
  });
});

describe('invalid scenarios (testdata/bad)', () => {
  const files = readdirSync(new URL('bad/', testdata)).sort();

  it('every fixture has its expected errors and every expectation its fixture', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    expect(files).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('%s', (file) => {
    const r = parseScenario(read(`bad/${file}`));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const want = expected[file] ?? [];
    for (const w of want) {
      const hit = r.errors.find((e) => e.path === w.path && e.message.includes(w.message));
      expect(hit, `${file}: no error ${w.path}: ...${w.message}... in\n${formatErrors(r.errors, file)}`).toBeDefined();
    }
    expect(r.errors, formatErrors(r.errors, file)).toHaveLength(want.length);
  });
});

describe('messages', () => {
  const minimal = (): Record<string, any> => load('good/minimal.json') as Record<string, any>;
  const errorsOf = (doc: unknown): string[] => {
    const r = validateScenario(doc);
    return r.ok ? [] : r.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
  };

  it('reports every structural problem at once, one message each', () => {
    const d = minimal();
    d.seed = -1;
    d.links[0].baud = 3.5; // breaks `type` and `minimum`: one message
    d.links[0].qlen = 65;
    d.hosts[0].stack = { tcp_cc: 'cubic' };
    expect(errorsOf(d)).toEqual([
      'seed: must be an integer between 0 and 4294967295',
      'hosts[0].stack.tcp_cc: must be one of: none, fixed, reno, newreno',
      'links[0].baud: must be an integer between 50 and 4000000',
      'links[0].qlen: must be an integer between 0 and 64',
    ]);
  });

  it('reports a link field against the branch its type selects, not every branch', () => {
    const d = minimal();
    d.links[0] = { name: 'nfc', type: 'nfc', a: 'pc', b: 'mcu', rate_kbps: 300, baud: 9600 };
    expect(errorsOf(d).sort()).toEqual(['links[0].baud: unknown field "baud" (did you mean "uart_baud"?)', 'links[0].rate_kbps: must be one of: 212, 424']);
  });

  it('names a missing link type', () => {
    const d = minimal();
    delete d.links[0].type;
    expect(errorsOf(d)).toEqual(['links[0].type: is required']);
  });

  it('describes a value that is the wrong kind of thing', () => {
    expect(errorsOf(null)).toEqual(['must be an object']);
    const d = minimal();
    d.hosts = { pc: {} };
    d.links[0].faults = {};
    expect(errorsOf(d)).toEqual(['hosts: must be an array', 'links[0].faults: must be an array']);
  });

  it('checks the semantics only once the structure is right', () => {
    const d = minimal();
    d.links[0].b = 'nobody'; // semantic
    d.seed = 'x'; // structural
    expect(errorsOf(d)).toEqual(['seed: must be an integer between 0 and 4294967295']);
  });

  it('a latency pair element is checked as a number', () => {
    const d = minimal();
    d.links[0].latency_us = [10, -1];
    expect(errorsOf(d)).toEqual(['links[0].latency_us[1]: must be an integer between 0 and 10000000']);
  });

  it('accepts the edges of the ranges and the cross-field limits', () => {
    const d = minimal();
    d.hosts[0].stack = { tcp_rto_min_ms: 60000, tcp_rto_initial_ms: 60000, tcp_mss: 64 };
    d.links[0] = { name: 'nfc', type: 'nfc', a: 'pc', b: 'mcu', rate_kbps: 424, chunk_overhead: 29, slot_period_us: 2000 };
    expect(errorsOf(d)).toEqual([]);
    d.links[0].chunk_overhead = 30;
    expect(errorsOf(d)).toEqual(['links[0].chunk_overhead: must be less than chunk_bytes (30, the default at 424 kbit/s)']);
  });

  it('places the timer phase inside the tick it shifts', () => {
    const d = minimal();
    d.hosts[0].stack = { tcp_timer_tick_ms: 500, tcp_fast_tick_ms: 250, tcp_timer_phase_ms: 499 };
    expect(errorsOf(d)).toEqual([]);
    d.hosts[0].stack.tcp_timer_phase_ms = 500;
    expect(errorsOf(d)).toEqual(['hosts[0].stack.tcp_timer_phase_ms: must be less than tcp_timer_tick_ms (500)']);
    d.hosts[0].stack = { tcp_fast_tick_ms: 250, tcp_timer_phase_ms: 300 };
    expect(errorsOf(d)).toEqual(['hosts[0].stack.tcp_timer_phase_ms: must be less than tcp_fast_tick_ms (250)']);
    d.hosts[0].stack = { tcp_timer_phase_ms: 100 };
    expect(errorsOf(d)).toEqual([
      'hosts[0].stack.tcp_timer_phase_ms: is only used with coarse timers (tcp_timer_tick_ms or tcp_fast_tick_ms above 0); here every timer is exact',
    ]);
  });

  it('starts the timer on demand only where there are ticks', () => {
    const d = minimal();
    d.hosts[0].stack = { tcp_timer_tick_ms: 500, tcp_timer_on_demand: true };
    expect(errorsOf(d)).toEqual([]);
    d.hosts[0].stack = { tcp_timer_on_demand: true };
    expect(errorsOf(d)).toEqual([
      'hosts[0].stack.tcp_timer_on_demand: is only used with coarse timers (tcp_timer_tick_ms or tcp_fast_tick_ms above 0); here every timer is exact',
    ]);
  });

  it('refuses addresses no host may use', () => {
    const d = minimal();
    for (const [addr, why] of [
      ['127.0.0.1/8', 'loopback'],
      ['0.1.2.3/8', '"this network"'],
      ['224.0.0.1/24', 'multicast'],
      ['10.0.7.0/24', 'the address of the subnet'],
      ['10.0.07.1/24', 'leading zero'],
    ]) {
      d.hosts[0].addr = addr;
      expect(errorsOf(d).join('\n')).toContain(why);
    }
    d.hosts[0].addr = '10.0.7.0/31'; // RFC 3021: both addresses of a /31 are hosts'
    d.hosts[1].addr = '10.0.7.1/31';
    expect(errorsOf(d)).toEqual([]);
  });

  it('limits the rounds of all apps together to what the engine holds', () => {
    const d = minimal();
    const rounds = Array.from({ length: 256 }, () => ({ req: 1, resp: 1 }));
    d.apps = [0, 1, 2, 3].map(() => ({ type: 'reqresp_server', host: 'mcu', port: 7000, rounds }));
    expect(errorsOf(d)).toEqual([]);
    d.apps.push({ type: 'reqresp_server', host: 'mcu', port: 7001, rounds: [{ req: 1, resp: 1 }] });
    expect(errorsOf(d)).toEqual(["apps[4].rounds: brings the scenario's rounds to 1025; all apps together may have at most 1024"]);
  });

  it("checks a tcp_echo_client's connections against its bytes and its host's TCP sockets", () => {
    const d = minimal();
    const client = { type: 'tcp_echo_client', host: 'pc', to: 'mcu', bytes: 276000, connections: 8 };
    d.apps = [{ type: 'tcp_echo_server', host: 'mcu' }, client];
    expect(errorsOf(d)).toEqual([]); // 8: the default tcp_max_pcbs
    client.connections = 9;
    expect(errorsOf(d)).toEqual(['apps[1].connections: needs 9 TCP sockets on host "pc", which has tcp_max_pcbs 8']);
    d.hosts[0].stack = { tcp_max_pcbs: 64 };
    client.connections = 50;
    expect(errorsOf(d)).toEqual([]);
    client.bytes = 49;
    expect(errorsOf(d)).toEqual(['apps[1].connections: must be at most bytes (49)']);
    client.connections = 65;
    expect(errorsOf(d)).toEqual(['apps[1].connections: must be an integer between 1 and 64']);
    d.apps[0] = { type: 'udp_echo_server', host: 'mcu', connections: 2 }; // no such field there
    expect(errorsOf(d)).toContain('apps[0].connections: unknown field "connections"');
  });

  it("checks a TCP server's connections and backlog against its host's TCP sockets", () => {
    const d = minimal();
    const server: Record<string, unknown> = { type: 'tcp_echo_server', host: 'mcu', connections: 7, backlog: 7 };
    d.apps = [server, { type: 'tcp_discard_server', host: 'mcu', port: 9, connections: 1 }];
    expect(errorsOf(d)).toEqual([]); // 7 and the listener: the default tcp_max_pcbs, 8
    server.connections = 8;
    server.backlog = 9;
    expect(errorsOf(d)).toEqual([
      'apps[0].connections: needs 9 TCP sockets on host "mcu" (8 connections and the listener), which has tcp_max_pcbs 8',
      'apps[0].backlog: needs 10 TCP sockets on host "mcu" (9 waiting connections and the listener), which has tcp_max_pcbs 8',
    ]);
    d.hosts[1].stack = { tcp_max_pcbs: 64 };
    server.connections = 63;
    server.backlog = 63;
    expect(errorsOf(d)).toEqual([]);
    server.connections = 64;
    expect(errorsOf(d)).toEqual(['apps[0].connections: must be an integer between 1 and 63']);
  });

  it('suggests the field meant only when it is close', () => {
    const d = minimal();
    d.links[0].Baud = 1;
    d.links[0].zzz = 1;
    expect(errorsOf(d)).toEqual(['links[0].Baud: unknown field "Baud" (did you mean "baud"?)', 'links[0].zzz: unknown field "zzz"']);
  });
});

describe('formatErrors', () => {
  it('one line per error, prefixed with the file name', () => {
    const text = formatErrors(
      [
        { path: 'links[0].baud', message: 'must be an integer between 50 and 4000000' },
        { path: '', message: 'is not valid JSON: oops' },
      ],
      'scenario.json',
    );
    expect(text).toBe('scenario.json: links[0].baud: must be an integer between 50 and 4000000\nscenario.json: is not valid JSON: oops');
  });
});
