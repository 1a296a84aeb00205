// The command line: list, run (summary, files), and the errors a user sees for a bad
// scenario or bad arguments (exit status 2, the field and the reason named).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine, EngineScenarioError } from '../web/src/engine/engine.ts';
import { cli } from './cli_capture.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/stackscope.mjs');
const BAD = join(ROOT, 'web/src/scenarios/testdata/bad');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'web/src/scenarios/testdata/bad-expected.json'), 'utf8')) as Record<
  string,
  { path: string; message: string }[]
>;
const dir = mkdtempSync(join(tmpdir(), 'stackscope-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stackscope list and run', () => {
  it('list names every shipped scenario with its title', async () => {
    const r = await cli('list');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^arduino-slip +Two hosts over SLIP/m);
    expect(r.out).toMatch(/^nfc-bridge-1080 +NFC bridge/m);
    expect(r.out).toMatch(/^ethernet-bulk-lossy +Bulk transfer/m);
  });

  it('run prints the summary: frames per link, drops, retransmissions, apps, hash', async () => {
    const r = await cli('run', 'arduino-slip');
    expect(r.code).toBe(0);
    expect(r.out).toContain('link serial (serial SLIP, 57600 baud, 10 bits per character): 18 frames (9 a->b, 9 b->a), 0 dropped on the link');
    expect(r.out).toContain('64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=31.9 ms');
    expect(r.out).toContain('3 packets transmitted, 3 received, 0% packet loss');
    expect(r.out).toMatch(/app 2 tcp_echo_client on pc -> arduino: done: 200 bytes in 0\.\d+ s/);
    expect(r.out).toMatch(/app 3 tcp_echo_client on pc -> arduino: error -?\d+/);
    expect(r.out).toMatch(/^trace hash [0-9a-f]{16}$/m);
  });

  it("a tcp_echo_client's connections: one app, one report for all of them", async () => {
    const r = await cli('run', 'arduino-slip', '--set', 'apps.2.connections=2');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/app 2 tcp_echo_client on pc -> arduino, 2 connections: done: 200 bytes in 0\.\d+ s/);
    const bad = await cli('run', 'arduino-slip', '--set', 'apps.3.connections=11');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('apps[3].connections: must be at most bytes (10)');
  });

  it('--set and --seed change the run; the files asked for are written', async () => {
    const pcapng = join(dir, 'a.pcapng');
    const pcap = join(dir, 'a.pcap');
    const trace = join(dir, 'a.trace');
    const r = await cli('run', 'ethernet-bulk-lossy', '--set', 'apps.0.bytes=200000', '--seed', '3',
      '--pcapng', pcapng, '--pcap', pcap, '--trace', trace);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/app 0 bulk_sender on sender -> receiver: done: 200000 bytes/);
    expect(r.out).toMatch(/retransmissions: sender: (RTO expired|fast retransmit)/);
    expect(readFileSync(pcapng).readUInt32LE(0)).toBe(0x0a0d0d0a);
    expect(readFileSync(pcap).readUInt32LE(0)).toBe(0xa1b2c3d4);
    expect(readFileSync(trace).length % 8).toBe(0);
  });

  it('--table prints the packet list as Wireshark shows it', async () => {
    const r = await cli('run', 'arduino-slip', '--table');
    expect(r.out).toMatch(/No\. +Time Source +Destination +Protocol +Length Info/);
    expect(r.out).toMatch(/^ +1 +0\.000000 10\.0\.7\.1 +10\.0\.7\.2 +ICMP +84 Echo \(ping\) request/m);
  });

  it("--table says what the page's Stack says does: the RTO that ran out, and a copy's origin on the link it crossed", async () => {
    const r = await cli('run', 'nfc-bridge-1080', '--link', 'eth', '--table');
    expect(r.code).toBe(0);
    // the server's own retransmission of row 5, and the appliance's, forwarded by the PTx,
    // whose first copy was lost on the NFC link (its row there named)
    expect(r.out).toMatch(/\[TCP Retransmission\] 7891 → 49153 .*\[stack: RTO expired, RTO=1\.000 s \(re-sends 5\)\]$/m);
    expect(r.out).toMatch(/\[stack: forwarded by ptx: RTO expired, RTO=1\.000 s \(re-sends nfc \d+\)\]$/m);
  });
});

describe('bad input: exit status 2, the field and the reason', () => {
  const files = readdirSync(BAD).filter((f) => f.endsWith('.json'));

  it('has the bad scenario fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  for (const f of files) {
    it(`${f}: the schema's message, status 2`, async () => {
      const r = await cli('run', join(BAD, f));
      expect(r.code).toBe(2);
      const first = EXPECTED[f]![0]!;
      if (first.path) expect(r.err).toContain(`${first.path}: `);
      expect(r.err).toContain(first.message);
    });
  }

  // A replay's reference block is for `stackscope replay` and the page; the engine accepts
  // it unread, so a fixture whose only fault is there loads.
  const engineReads = (f: string): boolean => !f.startsWith('reference-');
  for (const f of files.filter(engineReads)) {
    it(`${f}: the engine refuses it too, without the schema`, async () => {
      const text = readFileSync(join(BAD, f), 'utf8');
      await expect(Engine.create(text)).rejects.toThrow(EngineScenarioError);
    });
  }
  for (const f of files.filter((x) => !engineReads(x))) {
    it(`${f}: the engine loads it, leaving the reference block unread`, async () => {
      (await Engine.create(readFileSync(join(BAD, f), 'utf8'))).destroy();
    });
  }

  // `to` as an address, the tcp_client and a TCP app on a responder host: the engine checks them with the schema's and
  // validate.ts's rules and names the same field (the wording differs only where the schema
  // explains a malformed address).
  const PEER_FIXTURES = ['app-to-own-address.json', 'app-to-loopback.json', 'app-to-broadcast.json', 'app-to-bad-address.json',
    'tcp-client-missing-port.json', 'tcp-client-probe-not-boolean.json', 'reqresp-rounds-differ-by-address.json',
    'responder-tcp-app.json'];
  for (const f of PEER_FIXTURES) {
    it(`${f}: the engine names the same field`, async () => {
      const first = EXPECTED[f]![0]!;
      const err = await Engine.create(readFileSync(join(BAD, f), 'utf8')).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EngineScenarioError);
      const msg = (err as Error).message;
      expect(msg.startsWith(`${first.path}: `)).toBe(true);
      if (f !== 'app-to-bad-address.json') expect(msg).toContain(first.message);
    });
  }

  it('a real process exits with status 2 and prints the field', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', join(BAD, 'wrong-type-baud.json')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('links[0].baud: must be an integer between 50 and 4000000');
  });

  it('bad arguments are status 2 too', async () => {
    expect((await cli('run', 'no-such-scenario')).code).toBe(2);
    expect((await cli('run', 'arduino-slip', '--seed', 'x')).code).toBe(2);
    expect((await cli('run', 'arduino-slip', '--set', 'seed')).code).toBe(2);
    expect((await cli('run', 'arduino-slip', '--set', 'links.serial.baud=-1')).err).toContain('links[0].baud');
    expect((await cli('run', 'arduino-slip', '--link', 'nope')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('a file that is not JSON names the problem', async () => {
    const f = join(dir, 'broken.json');
    writeFileSync(f, '{"version": 1,,}');
    const r = await cli('run', f);
    expect(r.code).toBe(2);
    expect(r.err).toContain('broken.json: is not valid JSON');
  });
});

it('the bin entry runs under node (smoke)', () => {
  expect(execFileSync(process.execPath, [CLI, 'list'], { encoding: 'utf8' })).toContain('arduino-slip');
});
