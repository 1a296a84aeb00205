// The command line: list, run (summary, files), and the errors a user sees for a bad
// scenario or bad arguments (exit status 2, the field and the reason named).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine, EngineScenarioError } from '../web/src/core/engine/engine.ts';
import { defaultCapturePoint } from '../web/src/core/engine/capture_point.ts';
import { runScenario } from '../web/src/core/engine/run.ts';
import { cli } from './cli_capture.ts';
import { readScenarioInput } from './scenario_input.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/stackscope.mjs');
const BAD = join(ROOT, 'web/src/core/scenarios/testdata/bad');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'web/src/core/scenarios/testdata/bad-expected.json'), 'utf8')) as Record<
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
    expect(r.out).toMatch(/app 2 tcp_echo_client on pc -> arduino: done: .*\n {4}content: 200 bytes checked, all as expected\n/);
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
    const r = await cli('run', 'ethernet-bulk-lossy', '--set', 'apps.0.bytes=200000', '--seed', '3', '--pcapng', pcapng, '--pcap', pcap, '--trace', trace);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/app 0 bulk_sender on sender -> receiver: done: 200000 bytes/);
    expect(r.out).toMatch(/retransmissions: sender: (RTO expired|fast retransmit)/);
    expect(readFileSync(pcapng).readUInt32LE(0)).toBe(0x0a0d0d0a);
    expect(readFileSync(pcap).readUInt32LE(0)).toBe(0xa1b2c3d4);
    expect(readFileSync(trace).length % 8).toBe(0);
  });

  it("the bulk receiver's content check: every data byte checked, none differs", async () => {
    const r = await cli('run', 'ethernet-bulk-lossy', '--set', 'apps.0.bytes=200000');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/app 1 bulk_receiver on receiver: done: 200000 bytes.*\n {4}content: 200000 bytes checked, all as expected\n/);
  });

  // Servers that answer with other bytes than the client expects: a request/response
  // server answers an echo client with the complement of what it sent, and an echo server
  // returns a request/response client's request instead of its response. The counts are
  // the apps' own, from a real run; the process exits 1 naming each app and its count.
  it('bytes that differ: the summary shows the count, one line per app on stderr, status 1', () => {
    const file = join(dir, 'wrong-server.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'wrong-server',
        title: 'Clients of the wrong servers',
        duration_ms: 5000,
        hosts: [
          { name: 'pc', addr: '10.0.7.1/24' },
          { name: 'box', addr: '10.0.7.2/24' },
        ],
        links: [{ name: 'eth', type: 'ethernet', a: 'pc', b: 'box' }],
        apps: [
          { type: 'reqresp_server', host: 'box', port: 7891, rounds: [{ req: 3000, resp: 3000 }] },
          { type: 'tcp_echo_client', host: 'pc', to: 'box', port: 7891, bytes: 3000 },
          { type: 'tcp_echo_server', host: 'box', port: 7 },
          { type: 'reqresp_client', host: 'pc', to: 'box', port: 7, rounds: [{ req: 500, resp: 500 }] },
        ],
      }),
    );
    const r = spawnSync(process.execPath, [CLI, 'run', file], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    // the server found the client's bytes right: its request pattern is the echo pattern
    expect(r.stdout).toMatch(/app 0 reqresp_server on box: done: .*\n {4}content: 3000 bytes checked, all as expected\n/);
    expect(r.stdout).toMatch(/app 1 tcp_echo_client on pc -> box: done: 3000 bytes.*\n {4}content: 3000 bytes checked, 3000 differ from what was expected\n/);
    expect(r.stdout).toMatch(/app 3 reqresp_client on pc -> box: done: .*\n {4}content: 500 bytes checked, 500 differ from what was expected\n/);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'stackscope: app 1 tcp_echo_client on pc: 3000 of the 3000 bytes it checked differ from what was expected',
      'stackscope: app 3 reqresp_client on pc: 500 of the 500 bytes it checked differ from what was expected',
    ]);
  });

  it('an option may take its value after "=": --seed=3 is --seed 3', async () => {
    const a = await cli('run', 'arduino-slip', '--seed=3', '--set=apps.2.bytes=300');
    const b = await cli('run', 'arduino-slip', '--seed', '3', '--set', 'apps.2.bytes=300');
    expect(a.code).toBe(0);
    expect(a.out.replace(/ in [\d.]+ s$/gm, '')).toBe(b.out.replace(/ in [\d.]+ s$/gm, ''));
    expect(a.out).toContain('seed 3;');
    expect(a.out).toMatch(/done: 300 bytes/);
  });

  it('--table prints the packet list as Wireshark shows it', async () => {
    const r = await cli('run', 'arduino-slip', '--table');
    expect(r.out).toMatch(/No\. +Time Source +Destination +Protocol +Length Info/);
    expect(r.out).toMatch(/^ +1 +0\.000000 10\.0\.7\.1 +10\.0\.7\.2 +ICMP +84 Echo \(ping\) request/m);
  });

  it("a bridge's ARP decisions are the bridge's: with every frame from the user lost, the PTx gives up on its address", async () => {
    const r = await cli('run', 'nfc-bridge-1080', '--set', 'links.eth.faults=[{"action":"drop","p":1,"dir":"ba"}]');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^drops: .*ptx: arp: no reply to the requests for the next hop x\d+/m);
  });

  it("--table says what the page's Stack says does: the RTO that ran out, and a copy's origin on the link it crossed", async () => {
    const r = await cli('run', 'nfc-bridge-1080', '--link', 'eth', '--table');
    expect(r.code).toBe(0);
    // the PTx's own ARP request (not a forwarded frame: no note), the server's own
    // retransmission of row 7, and the appliance's, forwarded by the PTx, whose first copy
    // was lost on the NFC link (its row there named)
    expect(r.out).toMatch(/^ +1 +0\.000000 02:00:00:00:00:03 +Broadcast +ARP +42 Who has 192\.168\.1\.202\? Tell 192\.168\.1\.102$/m);
    expect(r.out).toMatch(/\[TCP Retransmission\] 7891 → 49153 .*\[stack: RTO expired, RTO=1\.000 s \(re-sends 7\)\]$/m);
    expect(r.out).toMatch(/\[stack: forwarded by ptx: RTO expired, RTO=1\.000 s \(re-sends nfc \d+\)\]$/m);
  });

  it("--table and --table-json list the page's default capture point unless --link names another, or all", async () => {
    const json = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
    const plain = await cli('run', 'nfc-bridge-1080', '--table', '--table-json', join(dir, 'default.json'));
    expect(plain.code).toBe(0);
    const { world } = await runScenario(readScenarioInput('nfc-bridge-1080', [], undefined).json);
    const page = world.links[defaultCapturePoint(world)]!.name;
    expect(page).toBe('eth'); // the scenario's capture list names eth first; nfc is links[0]
    expect(plain.out).toContain(`packet list of link ${page}:`);
    expect(plain.out).not.toContain('packet list of link nfc:');
    for (const name of ['nfc', 'eth']) expect((await cli('run', 'nfc-bridge-1080', '--link', name, '--table-json', join(dir, `${name}.json`))).code).toBe(0);
    expect(json('default.json')).toEqual(json('eth.json'));
    expect(json('nfc.json')).not.toEqual(json('eth.json'));

    const all = await cli('run', 'nfc-bridge-1080', '--link', 'all', '--table', '--table-json', join(dir, 'all.json'));
    expect(all.code).toBe(0);
    expect(all.out.indexOf('packet list of link nfc:')).toBeLessThan(all.out.indexOf('packet list of link eth:'));
    expect(json('all.json')).toEqual([
      { link: 'nfc', rows: json('nfc.json') },
      { link: 'eth', rows: json('eth.json') },
    ]);
  });
});

describe('TCP servers: connections at once and the listen backlog', () => {
  // Two hosts on Ethernet, each with the most TCP sockets a host may have, an echo server
  // with the defaults, and one client opening `connections` at once.
  const echoWorld = (connections: number, server: object = {}): string => {
    const file = join(dir, `echo-${connections}-${Object.keys(server).join('-')}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'echo-many',
        title: 'Many connections to one echo server',
        duration_ms: 60000,
        hosts: [
          { name: 'pc', addr: '10.0.0.1/24', stack: { tcp_max_pcbs: 64 } },
          { name: 'server', addr: '10.0.0.2/24', stack: { tcp_max_pcbs: 64 } },
        ],
        links: [{ name: 'eth', type: 'ethernet', a: 'pc', b: 'server' }],
        apps: [
          { type: 'tcp_echo_server', host: 'server', ...server },
          { type: 'tcp_echo_client', host: 'pc', to: 'server', bytes: 640000, connections },
        ],
      }),
    );
    return file;
  };

  it('an echo client with 64 connections to a default server finishes, byte-exact', async () => {
    const r = await cli('run', echoWorld(64));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /app 1 tcp_echo_client on pc -> server, 64 connections: done: 640000 bytes in \d+\.\d+ s.*\n {4}content: 640000 bytes checked, all as expected\n/,
    );
  });

  it("the same over the Arduino scenario's 57600-baud SLIP line", async () => {
    const r = await cli(
      'run',
      'arduino-slip',
      '--set',
      'hosts.pc.stack.tcp_max_pcbs=64',
      '--set',
      'hosts.arduino.stack.tcp_max_pcbs=64',
      '--set',
      'apps=[{"type":"tcp_echo_server","host":"arduino"},{"type":"tcp_echo_client","host":"pc","to":"arduino","bytes":6400,"connections":64}]',
      '--set',
      'duration_ms=600000',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/app 1 tcp_echo_client on pc -> arduino, 64 connections: done: 6400 bytes.*\n {4}content: 6400 bytes checked, all as expected\n/);
  });

  it('a scenario sets them: 2 at once and 1 waiting, the other SYNs dropped and retried', async () => {
    const r = await cli('run', echoWorld(5, { connections: 2, backlog: 1 }));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/drops: .*server: tcp: listen backlog full x\d+/);
    expect(r.out).toMatch(/retransmissions: .*pc: SYN RTO expired x\d+/);
    expect(r.out).toMatch(/5 connections: done: 640000 bytes.*\n {4}content: 640000 bytes checked, all as expected\n/);
    const all = await cli('run', echoWorld(5));
    expect(all.out).not.toMatch(/listen backlog full|SYN RTO expired/);
  });

  it('each limit must leave the listener a socket: the validator and the engine say so alike', async () => {
    const doc = (server: object): string =>
      JSON.stringify({
        ...JSON.parse(readFileSync(join(ROOT, 'web/src/core/scenarios/shipped/arduino-slip.json'), 'utf8')),
        apps: [{ type: 'tcp_echo_server', host: 'arduino', ...server }],
      });
    // arduino has tcp_max_pcbs 4: 3 connections and the listener
    const cases: [object, string][] = [
      [{ connections: 4 }, 'apps[0].connections: needs 5 TCP sockets on host "arduino" (4 connections and the listener), which has tcp_max_pcbs 4'],
      [{ backlog: 9 }, 'apps[0].backlog: needs 10 TCP sockets on host "arduino" (9 waiting connections and the listener), which has tcp_max_pcbs 4'],
    ];
    for (const [server, message] of cases) {
      const file = join(dir, 'server-limits.json');
      const text = doc(server);
      const key = `"${Object.keys(server)[0]}":`;
      const at = `line 1, column ${text.indexOf(key) + key.length + 1}: ${message}`; // the value's place
      writeFileSync(file, text);
      const r = await cli('run', file);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`${file}: ${at}`);
      await expect(Engine.create(text)).rejects.toThrow(at);
    }
    (await Engine.create(doc({ connections: 3, backlog: 3 }))).destroy();
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
  const PEER_FIXTURES = [
    'app-to-own-address.json',
    'app-to-loopback.json',
    'app-to-broadcast.json',
    'app-to-bad-address.json',
    'tcp-client-missing-port.json',
    'tcp-client-probe-not-boolean.json',
    'reqresp-rounds-differ-by-address.json',
    'responder-tcp-app.json',
  ];
  for (const f of PEER_FIXTURES) {
    it(`${f}: the engine names the same field`, async () => {
      const first = EXPECTED[f]![0]!;
      const err = await Engine.create(readFileSync(join(BAD, f), 'utf8')).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EngineScenarioError);
      const msg = (err as Error).message.replace(/^line \d+, column \d+: /, '');
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
    expect(r.err).toContain('broken.json: line 1, column 15: expected a string key');
  });
});

describe('help', () => {
  for (const command of ['list', 'run', 'replay', 'lesson', 'bench']) {
    for (const flag of ['--help', '-h']) {
      it(`${command} ${flag} prints the command's usage, status 0`, async () => {
        const r = await cli(command, flag);
        expect(r.code).toBe(0);
        expect(r.err).toBe('');
        expect(r.out.startsWith(`usage: stackscope ${command}`)).toBe(true);
      });
    }
  }

  it('help wins over the other faults of the line, but not after "--"', async () => {
    expect((await cli('run', '--frob', '--help')).code).toBe(0);
    const r = await cli('run', '--', '--help');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--help: no such scenario');
  });

  it('stackscope --help run is stackscope run --help', async () => {
    expect(await cli('--help', 'run')).toEqual(await cli('run', '--help'));
  });

  it('stackscope --help lists every command and exits 0; no command at all is status 2', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const c of ['list', 'run', 'replay', 'lesson', 'bench']) expect(r.out).toContain(`stackscope ${c}`);
    expect((await cli()).code).toBe(2);
  });
});

it('the bin entry runs under node (smoke)', () => {
  expect(execFileSync(process.execPath, [CLI, 'list'], { encoding: 'utf8' })).toContain('arduino-slip');
});
