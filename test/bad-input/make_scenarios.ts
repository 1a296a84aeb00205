// Writes the bad-input suite: scenarios/*.json, each a valid base scenario (bases/) with one
// fault put in, and manifest.json, which says for each file the field its message must name
// and the line and column it must give. Run it after changing a case:
//
//   npx tsx test/bad-input/make_scenarios.ts
//
// The positions are found here, not by either validator: each case puts a marker (⟦) where
// the message must point (the faulty value's first character, the object that lacks a
// required field, the byte a syntax error is at), and the marker's line and column are
// counted before it is taken out. bin/bad_input.test.ts runs every file through the
// command's reader and the native engine.

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Seg = string | number;

const HERE = fileURLToPath(new URL('.', import.meta.url));
const MARK = '⟦';

const bases: Record<string, Json> = {
  serial: {
    version: 1,
    name: 'bad-input-serial',
    title: 'Two hosts on a serial line',
    description: 'The base of the bad-input suite: each file is this with one fault.',
    seed: 7,
    duration_ms: 3000,
    hosts: [
      { name: 'pc', addr: '10.0.7.1/24', stack: { tcp_rto_min_ms: 200, tcp_timer_tick_ms: 500, tcp_timer_phase_ms: 100, tcp_nfc: { r_window: 4 } } },
      { name: 'mcu', addr: '10.0.7.2/24' },
    ],
    links: [
      {
        name: 'serial',
        type: 'serial',
        a: 'pc',
        b: 'mcu',
        baud: 57600,
        latency_us: [100, 200],
        faults: [{ action: 'drop', nth: 3, match: { from: 'pc', proto: 'tcp', port: 7, min_len: 40, max_len: 1500, tcp_flags: 'A' } }],
      },
    ],
    apps: [
      { type: 'tcp_echo_server', host: 'mcu' },
      { type: 'ping', host: 'pc', to: 'mcu', count: 2 },
      { type: 'tcp_echo_client', host: 'pc', to: 'mcu', bytes: 100, connections: 2 },
      { type: 'tcp_client', host: 'pc', to: '10.0.7.2', port: 7 },
    ],
    capture: ['serial'],
  },
  bridged: {
    version: 1,
    name: 'bad-input-bridged',
    title: 'Appliance, NFC bridge, server',
    duration_ms: 3000,
    hosts: [
      { name: 'appliance', addr: '192.168.1.102/24' },
      { name: 'server', addr: '192.168.1.202/24' },
    ],
    bridges: [{ name: 'ptx' }],
    links: [
      { name: 'nfc', type: 'nfc', a: 'appliance', b: 'ptx', module_buffer: [0, 2048] },
      { name: 'eth', type: 'ethernet', a: 'ptx', b: 'server', delay_us: 100 },
    ],
    apps: [
      { type: 'reqresp_server', host: 'server', rounds: [{ req: 100, resp: 200 }] },
      { type: 'reqresp_client', host: 'appliance', to: 'server', rounds: [{ req: 100, resp: 200, split: 10 }] },
    ],
  },
  external: {
    version: 1,
    name: 'bad-input-external',
    title: 'A host on the page serial port',
    duration_ms: 3000,
    hosts: [{ name: 'pc', addr: '10.0.7.1/24' }],
    links: [{ name: 'usb', type: 'external', a: 'pc', framing: 'slip6' }],
    apps: [{ type: 'ping', host: 'pc', to: '10.0.7.2' }],
  },
};

interface Case {
  name: string;
  base: keyof typeof bases;
  /** the field the message must name ("" for the document) */
  path: string;
  /** what is wrong, for people reading the manifest */
  fault: string;
  /** a change to the base document, and the value its message must point at (null: none) */
  edit?: (d: any) => void;
  mark?: Seg[] | null;
  /** or a change to the base's text, the marker written where the message must point */
  text?: (t: string) => string;
  /** or the file's bytes, from the text with its marker (taken out) */
  bytes?: (t: string) => Uint8Array;
}

// --- the text of a document, with the marker before the value at `mark` -------------------

function emit(v: Json, at: Seg[], mark: Seg[] | null, indent: string): string {
  const pre = mark !== null && mark.length === at.length && mark.every((s, i) => s === at[i]) ? MARK : '';
  if (v === null || typeof v !== 'object') return pre + JSON.stringify(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return `${pre}[]`;
    return `${pre}[\n${v.map((e, i) => inner + emit(e, [...at, i], mark, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return `${pre}{}`;
  return `${pre}{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${emit(v[k]!, [...at, k], mark, inner)}`).join(',\n')}\n${indent}}`;
}

const pretty = (v: Json, mark: Seg[] | null = null): string => `${emit(v, [], mark, '')}\n`;

/** The marker's line and column (1-based; a character outside the BMP is one column), and
 *  the text without it. */
function takeMark(text: string): { text: string; line?: number; column?: number } {
  const at = text.indexOf(MARK);
  if (at < 0) return { text };
  if (text.indexOf(MARK, at + 1) >= 0) throw new Error('two markers');
  const before = [...text.slice(0, at)];
  const nl = before.lastIndexOf('\n');
  return { text: text.slice(0, at) + text.slice(at + 1), line: before.filter((c) => c === '\n').length + 1, column: before.length - nl };
}

/** t with `find` replaced once by `by` (which carries the marker); `find` must be there. */
function swap(t: string, find: string, by: string): string {
  const i = t.indexOf(find);
  if (i < 0) throw new Error(`not in the base: ${find}`);
  return t.slice(0, i) + by + t.slice(i + find.length);
}

// --- the cases --------------------------------------------------------------------------

const cases: Case[] = [];
const add = (c: Case): void => void cases.push(c);

/** A field of the base set to `value`; the message points at the value. */
function value(name: string, base: Case['base'], at: Seg[], v: Json, fault: string): void {
  add({ name, base, path: pathOf(at), fault, mark: at, edit: (d) => (parentOf(d, at)[at[at.length - 1]!] = v) });
}

/** A field of the base removed; the message points at the object that lacks it. */
function missing(name: string, base: Case['base'], at: Seg[], fault: string): void {
  add({ name, base, path: pathOf(at), fault, mark: at.slice(0, -1), edit: (d) => delete parentOf(d, at)[at[at.length - 1]!] });
}

/** A change to the base document, the message at `mark` naming `path`. */
function change(name: string, base: Case['base'], path: string, mark: Seg[] | null, fault: string, edit: (d: any) => void): void {
  add({ name, base, path, fault, mark, edit });
}

/** A change to the base's text. */
function text(name: string, base: Case['base'], path: string, fault: string, find: string, by: string): void {
  add({ name, base, path, fault, text: (t) => swap(t, find, by) });
}

function parentOf(d: any, at: Seg[]): any {
  return at.slice(0, -1).reduce((o, s) => o[s], d);
}

function pathOf(at: Seg[]): string {
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

// JSON syntax, at a known byte.
text('syntax-trailing-comma-array', 'serial', 'capture', 'a comma after the last element', '"serial"\n  ]', `"serial"${MARK},\n  ]`);
text('syntax-trailing-comma-object', 'serial', 'hosts[1]', 'a comma after the last member', '"10.0.7.2/24"\n', `"10.0.7.2/24"${MARK},\n`);
text('syntax-missing-comma', 'serial', 'hosts[1]', 'no comma between two members', '"name": "mcu",', `"name": "mcu" ${MARK}"x": 1,`);
text('syntax-missing-colon', 'serial', 'seed', 'no colon after a key', '"seed": 7', `"seed" ${MARK}7`);
text('syntax-single-quotes', 'serial', 'title', 'a string in single quotes', '"title": "Two hosts on a serial line"', `"title": ${MARK}'Two hosts'`);
text('syntax-line-comment', 'serial', '', 'a // comment', '  "seed": 7,', `  ${MARK}// the seed\n  "seed": 7,`);
text('syntax-block-comment', 'serial', 'links[0]', 'a /* comment */ between members', '"baud": 57600,', `"baud": 57600, ${MARK}/* 8N1 */`);
text('syntax-unterminated-string', 'serial', 'note', 'a string the file ends in', '  ]\n}\n', `  ],\n  "note": ${MARK}"unfinished`);
text('syntax-raw-newline-in-string', 'serial', 'title', 'a line break inside a string', '"Two hosts on a serial line"', `"Two hosts${MARK}\non a serial line"`);
text('syntax-bad-escape', 'serial', 'title', 'an escape JSON does not have', '"Two hosts on a serial line"', `"Two hosts${MARK}\\x41"`);
text('syntax-leading-zero', 'serial', 'duration_ms', 'a number with a leading zero', '"duration_ms": 3000', `"duration_ms": 0${MARK}3000`);
text('syntax-number-dot', 'serial', 'seed', 'a number ending in a dot', '"seed": 7', `"seed": 7.${MARK}`);
text('syntax-plus-sign', 'serial', 'seed', 'a number with a plus sign', '"seed": 7', `"seed": ${MARK}+7`);
text('syntax-hex-number', 'serial', 'links[0].baud', 'a hexadecimal number', '"baud": 57600', `"baud": 0${MARK}xE100`);
text('syntax-bare-word', 'serial', 'links[0].faults[0].match.proto', 'a word without quotes', '"proto": "tcp"', `"proto": ${MARK}tcp`);
text('syntax-capital-true', 'serial', 'apps[2].connections', 'True instead of true', '"connections": 2', `"connections": ${MARK}True`);
text('syntax-trailing-characters', 'serial', '', 'text after the document', '  ]\n}\n', `  ]\n}\n${MARK}x\n`);
text('syntax-unclosed-object', 'serial', '', 'the document ends before its closing brace', '  ]\n}\n', `  ]\n${MARK}`);
text('syntax-key-twice', 'serial', 'seed', 'a key written twice at the top', '"seed": 7,', `"seed": 7,\n  ${MARK}"seed": 8,`);
text('syntax-key-twice-nested', 'serial', 'links[0].baud', 'a key written twice in a link', '"baud": 57600,', `"baud": 57600, ${MARK}"baud": 9600,`);
text(
  'syntax-key-twice-escaped',
  'serial',
  'links[0].baud',
  'a key written twice, once with an escape',
  '"baud": 57600,',
  `"baud": 57600, ${MARK}"b\\u0061ud": 9600,`,
);
text('syntax-nan', 'serial', 'links[0].baud', 'NaN as a value', '"baud": 57600', `"baud": ${MARK}NaN`);
text('syntax-infinity', 'serial', 'duration_ms', 'Infinity as a value', '"duration_ms": 3000', `"duration_ms": ${MARK}Infinity`);
text('syntax-minus-infinity', 'serial', 'apps[1].count', '-Infinity as a value', '"count": 2', `"count": ${MARK}-Infinity`);
text('syntax-nan-in-array', 'serial', 'links[0].latency_us[1]', 'NaN as an array element', '200\n', `${MARK}NaN\n`);
text(
  'syntax-lone-high-surrogate',
  'serial',
  'title',
  'a \\ud800 without its low half',
  '"Two hosts on a serial line"',
  `"Two hosts ${MARK}\\ud800 on a serial line"`,
);
text('syntax-lone-low-surrogate', 'serial', 'hosts[1].name', 'a \\udc00 alone', '"name": "mcu"', `"name": "m${MARK}\\udc00cu"`);
text('syntax-surrogate-pair-reversed', 'serial', 'description', 'a low half before a high half', '"The base', `"${MARK}\\udc00\\ud800The base`);
text('syntax-control-character', 'serial', 'description', 'a raw tab inside a string', 'The base of', `The base${MARK}\tof`);
text('syntax-empty-file', 'serial', '', 'no value at all', pretty(bases.serial!), MARK);
text(
  'syntax-deep-nesting',
  'serial',
  `x${'.a'.repeat(63)}`,
  'containers 65 deep',
  '  "seed": 7,',
  `  "x": ${'{"a": '.repeat(63)}${MARK}{"a": 1${'}'.repeat(64)},\n  "seed": 7,`,
);
// 32768 values and keys at most (wasm/api/scenario_load.h): the root, "x", its array, and
// elements 0 .. 32764; element 32765 is one too many.
text(
  'syntax-too-many-values',
  'serial',
  'x[32765]',
  'more than 32768 values and keys',
  '{\n  "version"',
  `{\n  "x": [${Array.from({ length: 32765 }, () => '0').join(',')},${MARK}0,0],\n  "version"`,
);
text(
  'syntax-too-many-members',
  'serial',
  'x',
  'an object of 257 members',
  '  "seed": 7,',
  `  "x": {${Array.from({ length: 257 }, (_, i) => `${i === 256 ? MARK : ''}"k${i}": 0`).join(', ')}},\n  "seed": 7,`,
);

// Encodings: the file's bytes.
const utf8 = (t: string): Uint8Array => new TextEncoder().encode(t);
const utf16le = (t: string): Uint8Array => Uint8Array.from(Buffer.from(t, 'utf16le'));
const bytes = (name: string, path: string, fault: string, f: (t: string) => Uint8Array, find = '', by = ''): void =>
  add({ name, base: 'serial', path, fault, text: (t) => (find ? swap(t, find, by) : t), bytes: f });
bytes('encoding-utf8-bom', '', 'a UTF-8 byte order mark', (t) => Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(t)]), '{', `${MARK}{`);
bytes('encoding-utf16le-bom', '', 'UTF-16, little-endian, with its byte order mark', (t) => Uint8Array.from([0xff, 0xfe, ...utf16le(t)]), '{', `${MARK}{`);
bytes(
  'encoding-utf16be-bom',
  '',
  'UTF-16, big-endian, with its byte order mark',
  (t) => {
    const le = utf16le(t);
    const be = le.map((_, i) => le[i ^ 1]!);
    return Uint8Array.from([0xfe, 0xff, ...be]);
  },
  '{',
  `${MARK}{`,
);
// Without a BOM, the first NUL is the high byte of the opening brace.
bytes('encoding-utf16le-no-bom', '', 'UTF-16 without a byte order mark', utf16le, '{', `{${MARK}`);
bytes(
  'encoding-invalid-utf8',
  '',
  'a byte that is not UTF-8 (Latin-1 é)',
  (t) => {
    const b = utf8(t.replace('§', 'x'));
    b[new TextEncoder().encode(t.slice(0, t.indexOf('§'))).length] = 0xe9;
    return b;
  },
  'The base of',
  `The ${MARK}§ase of`,
);
bytes(
  'encoding-nul-byte',
  '',
  'a NUL byte in a string',
  (t) => {
    const b = utf8(t.replace('§', 'x'));
    b[new TextEncoder().encode(t.slice(0, t.indexOf('§'))).length] = 0;
    return b;
  },
  'The base of',
  `The ${MARK}§ase of`,
);
// 1 MiB as written; the command used to strip the blanks and pass it on.
add({
  name: 'encoding-over-size',
  base: 'serial',
  path: '',
  fault: 'a file over 1 MiB (blanks)',
  text: (t) => swap(t, '  "seed": 7,', `  "seed": 7,${' '.repeat(1 << 20)}`),
});

// The top level.
value('top-version-string', 'serial', ['version'], '1', 'version as a string');
value('top-version-2', 'serial', ['version'], 2, 'a version that does not exist');
value('top-name-capitals', 'serial', ['name'], 'Bad-Input', 'capitals in the name');
value('top-name-64-characters', 'serial', ['name'], 'n'.repeat(64), 'a name of 64 characters');
value('top-title-empty', 'serial', ['title'], '', 'an empty title');
value('top-title-number', 'serial', ['title'], 5, 'a title that is a number');
value('top-description-array', 'serial', ['description'], ['a', 'b'], 'a description that is not a string');
value('top-seed-negative', 'serial', ['seed'], -1, 'a negative seed');
value('top-seed-2-32', 'serial', ['seed'], 4294967296, 'a seed of 2^32');
value('top-seed-fraction', 'serial', ['seed'], 1.5, 'a fractional seed');
value('top-duration-zero', 'serial', ['duration_ms'], 0, 'a run of 0 ms');
value('top-duration-too-long', 'serial', ['duration_ms'], 2000001, 'a run longer than the clock allows');
missing('top-duration-missing', 'serial', ['duration_ms'], 'no duration');
missing('top-title-missing', 'serial', ['title'], 'no title');
missing('top-links-missing', 'serial', ['links'], 'no links');
value('top-unknown-field', 'serial', ['durations_ms'], 5, 'a field the format does not have');
text('top-not-an-object', 'serial', '', 'the document is an array', pretty(bases.serial!), `${MARK}["version", 1]\n`);

// Hosts.
value('hosts-not-array', 'serial', ['hosts'], { pc: '10.0.7.1/24' }, 'hosts as an object');
value('hosts-empty', 'serial', ['hosts'], [], 'no hosts');
change('hosts-nine', 'serial', 'hosts', ['hosts'], 'nine hosts', (d) => {
  d.hosts.push(...Array.from({ length: 7 }, (_, i) => ({ name: `h${i}`, addr: `10.0.7.${10 + i}/24` })));
});
value('host-not-object', 'serial', ['hosts', 1], 'mcu', 'a host that is a string');
missing('host-name-missing', 'serial', ['hosts', 1, 'name'], 'a host without a name');
missing('host-addr-missing', 'serial', ['hosts', 1, 'addr'], 'a host without an address');
value('host-unknown-field', 'serial', ['hosts', 1, 'adr'], '10.0.7.3/24', 'a misspelt field');
value('host-name-capitals', 'serial', ['hosts', 1, 'name'], 'MCU', 'capitals in a host name');
value('host-name-16', 'serial', ['hosts', 1, 'name'], 'microcontroller1', 'a host name of 16 characters');
value('addr-no-prefix', 'serial', ['hosts', 1, 'addr'], '10.0.7.2', 'an address without /len');
value('addr-prefix-33', 'serial', ['hosts', 1, 'addr'], '10.0.7.2/33', 'a prefix of 33');
value('addr-octet-256', 'serial', ['hosts', 1, 'addr'], '10.0.256.2/24', 'an octet of 256');
value('addr-leading-zero', 'serial', ['hosts', 1, 'addr'], '10.0.07.2/24', 'an octet with a leading zero');
value('addr-three-octets', 'serial', ['hosts', 1, 'addr'], '10.0.7/24', 'three octets');
value('addr-number', 'serial', ['hosts', 1, 'addr'], 167772162, 'an address as a number');
value('addr-loopback', 'serial', ['hosts', 1, 'addr'], '127.0.0.2/8', 'a loopback address');
value('addr-multicast', 'serial', ['hosts', 1, 'addr'], '224.0.0.2/24', 'a multicast address');
value('addr-this-network', 'serial', ['hosts', 0, 'addr'], '0.0.7.1/24', 'an address in 0.0.0.0/8');
value('addr-subnet-address', 'serial', ['hosts', 1, 'addr'], '10.0.7.0/24', "the subnet's own address");
value('addr-broadcast', 'serial', ['hosts', 1, 'addr'], '10.0.7.255/24', "the subnet's broadcast address");
value('addr-twice', 'serial', ['hosts', 1, 'addr'], '10.0.7.1/24', 'the address of another host');
change('host-name-twice', 'serial', 'hosts[2].name', ['hosts', 2, 'name'], 'two hosts with one name', (d) => {
  d.hosts.push({ name: 'pc', addr: '10.0.7.3/24' });
});
change('host-name-is-link', 'serial', 'links[0].name', ['links', 0, 'name'], 'a link named as a host', (d) => {
  d.links[0].name = 'pc';
  delete d.capture;
});

// A host's stack.
value('stack-unknown-field', 'serial', ['hosts', 0, 'stack', 'tcp_rto_mn_ms'], 200, 'a misspelt stack field');
value('stack-ttl-zero', 'serial', ['hosts', 0, 'stack', 'ip_ttl'], 0, 'a TTL of 0');
value('stack-frag-string', 'serial', ['hosts', 0, 'stack', 'ip_frag'], 'yes', 'a boolean as a string');
value('stack-cc-unknown', 'serial', ['hosts', 0, 'stack', 'tcp_cc'], 'cubic', 'a congestion control the stack lacks');
value('stack-mss-small', 'serial', ['hosts', 0, 'stack', 'tcp_mss'], 10, 'an MSS of 10');
value('stack-mss-huge', 'serial', ['hosts', 0, 'stack', 'tcp_mss'], 70000, 'an MSS over 65495');
value('stack-delack-500', 'serial', ['hosts', 0, 'stack', 'tcp_delack_ms'], 500, 'a delayed-ACK timeout of 500 ms (RFC 1122: under 500)');
value('stack-rto-min-over-max', 'serial', ['hosts', 0, 'stack', 'tcp_rto_min_ms'], 70000, 'tcp_rto_min_ms above the default maximum');
change(
  'stack-rto-max-under-min',
  'serial',
  'hosts[1].stack.tcp_rto_max_ms',
  ['hosts', 1, 'stack', 'tcp_rto_max_ms'],
  'tcp_rto_max_ms below the default minimum',
  (d) => {
    d.hosts[1].stack = { tcp_rto_max_ms: 500 };
  },
);
change(
  'stack-rto-initial-over-max',
  'serial',
  'hosts[1].stack.tcp_rto_initial_ms',
  ['hosts', 1, 'stack', 'tcp_rto_initial_ms'],
  'tcp_rto_initial_ms above tcp_rto_max_ms',
  (d) => {
    d.hosts[1].stack = { tcp_rto_initial_ms: 3000, tcp_rto_max_ms: 2000, tcp_rto_min_ms: 200 };
  },
);
value('stack-phase-equals-tick', 'serial', ['hosts', 0, 'stack', 'tcp_timer_phase_ms'], 500, 'the timer phase equal to the tick');
change(
  'stack-phase-exact-timers',
  'serial',
  'hosts[1].stack.tcp_timer_phase_ms',
  ['hosts', 1, 'stack', 'tcp_timer_phase_ms'],
  'a timer phase with exact timers',
  (d) => {
    d.hosts[1].stack = { tcp_timer_phase_ms: 100 };
  },
);
change(
  'stack-phase-over-fast-tick',
  'serial',
  'hosts[1].stack.tcp_timer_phase_ms',
  ['hosts', 1, 'stack', 'tcp_timer_phase_ms'],
  'a phase at the fast tick when it is the only coarse one',
  (d) => {
    d.hosts[1].stack = { tcp_fast_tick_ms: 250, tcp_timer_phase_ms: 250 };
  },
);
value('stack-nfc-unknown', 'serial', ['hosts', 0, 'stack', 'tcp_nfc', 'window'], 4, 'a misspelt tcp_nfc field');
value('stack-nfc-window', 'serial', ['hosts', 0, 'stack', 'tcp_nfc', 'r_window'], 17, 'an r window of 17');
value('stack-nfc-not-object', 'serial', ['hosts', 0, 'stack', 'tcp_nfc'], true, 'tcp_nfc that is not an object');
value('stack-not-object', 'serial', ['hosts', 0, 'stack'], [], 'a stack that is an array');

// Links.
missing('link-type-missing', 'serial', ['links', 0, 'type'], 'a link without a type');
value('link-type-unknown', 'serial', ['links', 0, 'type'], 'wifi', 'a link type that does not exist');
missing('link-baud-missing', 'serial', ['links', 0, 'baud'], 'a serial link without a rate');
value('link-baud-low', 'serial', ['links', 0, 'baud'], 49, 'a rate under 50 baud');
value('link-baud-string', 'serial', ['links', 0, 'baud'], '57600', 'a rate as a string');
value('link-bits-13', 'serial', ['links', 0, 'bits_per_char'], 13, '13 bits per character');
value('link-framing-unknown', 'serial', ['links', 0, 'framing'], 'ppp', 'a framing the link lacks');
value('link-qlen-65', 'serial', ['links', 0, 'qlen'], 65, 'a queue of 65 frames');
value('link-mtu-67', 'serial', ['links', 0, 'mtu'], 67, 'an MTU under 68');
value('link-leading-end-number', 'serial', ['links', 0, 'leading_end'], 1, 'leading_end as a number');
value('link-latency-negative', 'serial', ['links', 0, 'latency_us'], -1, 'a negative latency');
value('link-latency-three', 'serial', ['links', 0, 'latency_us'], [1, 2, 3], 'a latency pair of three');
value('link-latency-element', 'serial', ['links', 0, 'latency_us', 1], -1, 'a negative latency in the pair');
value('link-latency-string', 'serial', ['links', 0, 'latency_us'], '100', 'a latency as a string');
value('link-latency-fraction', 'serial', ['links', 0, 'latency_us'], 1.5, 'a fractional latency');
value('link-unknown-field', 'serial', ['links', 0, 'bauds'], 9600, 'a misspelt link field');
missing('link-a-missing', 'serial', ['links', 0, 'a'], 'a link without end a');
value('link-a-unknown', 'serial', ['links', 0, 'a'], 'laptop', 'an end that is no host or bridge');
value('link-b-same-as-a', 'serial', ['links', 0, 'b'], 'pc', 'a link from a host to itself');
change('link-end-is-link', 'serial', 'links[1].b', ['links', 1, 'b'], 'an end that names a link', (d) => {
  d.hosts.push({ name: 'srv', addr: '10.0.7.3/24' });
  d.bridges = [{ name: 'br' }];
  d.links.push({ name: 'eth', type: 'ethernet', a: 'br', b: 'serial' }, { name: 'eth2', type: 'ethernet', a: 'br', b: 'srv' });
});
change('link-host-on-two', 'serial', 'links[1].a', ['links', 1, 'a'], 'a host on two links', (d) => {
  d.hosts.push({ name: 'srv', addr: '10.0.7.3/24' });
  d.links.push({ name: 'eth', type: 'ethernet', a: 'pc', b: 'srv' });
});
change('link-host-on-none', 'serial', 'hosts[2]', ['hosts', 2], 'a host on no link', (d) => {
  d.hosts.push({ name: 'srv', addr: '10.0.7.3/24' });
});
change('bridge-one-link', 'bridged', 'bridges[0]', ['bridges', 0], 'a bridge on one link', (d) => {
  d.hosts.push({ name: 'c', addr: '192.168.1.5/24' });
  d.links[1] = { name: 'eth', type: 'ethernet', a: 'c', b: 'server' };
});
change('bridge-three-links', 'bridged', 'links[2].a', ['links', 2, 'a'], 'a bridge on three links', (d) => {
  d.hosts.push({ name: 'c', addr: '192.168.1.5/24' });
  d.links.push({ name: 'eth2', type: 'ethernet', a: 'ptx', b: 'c' });
});
change('bridge-no-link', 'bridged', 'bridges[1]', ['bridges', 1], 'a bridge on no link', (d) => {
  d.bridges.push({ name: 'spare' });
});
value('bridge-unknown-field', 'bridged', ['bridges', 0, 'sensing'], true, 'a misspelt bridge field');
value('bridge-sensing-string', 'bridged', ['bridges', 0, 'channel_sensing'], 'on', 'channel_sensing as a string');
value('external-with-b', 'external', ['links', 0, 'b'], 'pc', 'an external link with a second end');
change('external-bridge-end', 'external', 'links[0].a', ['links', 0, 'a'], 'an external link whose end is a bridge', (d) => {
  d.bridges = [{ name: 'br' }];
  d.hosts.push({ name: 'mcu', addr: '10.0.7.2/24' });
  d.links = [
    { name: 'usb', type: 'external', a: 'br' },
    { name: 's1', type: 'serial', a: 'br', b: 'pc', baud: 9600 },
    { name: 's2', type: 'serial', a: 'br', b: 'mcu', baud: 9600 },
  ];
});
value('external-framing-cslip', 'external', ['links', 0, 'framing'], 'cslip', 'CSLIP on an external link');
value('nfc-rate-300', 'bridged', ['links', 0, 'rate_kbps'], 300, 'an NFC rate of 300 kbit/s');
value('nfc-overhead-chunk', 'bridged', ['links', 0, 'chunk_overhead'], 14, 'chunk_overhead equal to the default chunk');
value('nfc-air-over-period', 'bridged', ['links', 0, 'slot_air_us'], 10001, 'a slot longer than its period');
change('nfc-period-under-air', 'bridged', 'links[0].slot_period_us', ['links', 0, 'slot_period_us'], 'a period shorter than the default slot', (d) => {
  d.links[0].slot_period_us = 1000;
});
value('nfc-phase-period', 'bridged', ['links', 0, 'slot_phase_us'], 10000, 'a phase equal to the period');
value('nfc-lead-over-period', 'bridged', ['links', 0, 'lead_us'], 10001, 'a lead longer than the period');
value('nfc-module-buffer-one', 'bridged', ['links', 0, 'module_buffer'], [1], 'a module_buffer of one end');
value('nfc-module-buffer-big', 'bridged', ['links', 0, 'module_buffer', 1], 4096, 'a module buffer of 4096 bytes');
value('nfc-channel-unknown', 'bridged', ['links', 0, 'channel'], 'burst', 'a channel sharing that does not exist');
value('nfc-chunk-4', 'bridged', ['links', 0, 'chunk_bytes'], 4, 'a chunk of 4 bytes');
value('eth-rate-low', 'bridged', ['links', 1, 'rate_bps'], 999, 'an Ethernet of 999 bit/s');
value('eth-jitter-huge', 'bridged', ['links', 1, 'jitter_us'], 10000001, 'a jitter over 10 s');
value('eth-baud', 'bridged', ['links', 1, 'baud'], 9600, 'a serial field on Ethernet');
change('links-nine', 'serial', 'links', ['links'], 'nine links', (d) => {
  d.bridges = [{ name: 'br' }];
  for (let i = 0; i < 8; i++) d.links.push({ name: `l${i}`, type: 'ethernet', a: 'br', b: 'mcu' });
});

// Faults.
change('fault-p-and-nth', 'serial', 'links[0].faults[0]', ['links', 0, 'faults', 0], 'both p and nth', (d) => {
  d.links[0].faults[0].p = 0.1;
});
change('fault-neither', 'serial', 'links[0].faults[0]', ['links', 0, 'faults', 0], 'neither p nor nth', (d) => {
  delete d.links[0].faults[0].nth;
});
change('fault-p-over-one', 'serial', 'links[0].faults[0].p', ['links', 0, 'faults', 0, 'p'], 'a probability of 1.5', (d) => {
  delete d.links[0].faults[0].nth;
  d.links[0].faults[0].p = 1.5;
});
change('fault-count-with-p', 'serial', 'links[0].faults[0].count', ['links', 0, 'faults', 0, 'count'], 'count beside p', (d) => {
  delete d.links[0].faults[0].nth;
  d.links[0].faults[0].p = 0.5;
  d.links[0].faults[0].count = 2;
});
change('fault-delay-without-us', 'serial', 'links[0].faults[0].delay_us', ['links', 0, 'faults', 0], 'a delay without its delay_us', (d) => {
  d.links[0].faults[0].action = 'delay';
});
value('fault-delay-us-on-drop', 'serial', ['links', 0, 'faults', 0, 'delay_us'], 1000, 'delay_us on a drop');
value('fault-action-unknown', 'serial', ['links', 0, 'faults', 0, 'action'], 'reorder', 'an action that does not exist');
value('fault-dir-unknown', 'serial', ['links', 0, 'faults', 0, 'dir'], 'up', 'a direction that does not exist');
value('fault-nth-zero', 'serial', ['links', 0, 'faults', 0, 'nth'], 0, 'the 0th frame');
value('fault-match-from-unknown', 'serial', ['links', 0, 'faults', 0, 'match', 'from'], 'laptop', 'a match on a host that does not exist');
change('fault-match-to-bridge', 'bridged', 'links[1].faults[0].match.to', ['links', 1, 'faults', 0, 'match', 'to'], 'a match on a bridge', (d) => {
  d.links[1].faults = [{ action: 'drop', p: 0.1, match: { to: 'ptx' } }];
});
value('fault-match-flags-letter', 'serial', ['links', 0, 'faults', 0, 'match', 'tcp_flags'], 'AX', 'a flag letter that does not exist');
value('fault-match-flags-seven', 'serial', ['links', 0, 'faults', 0, 'match', 'tcp_flags'], 'SAFRPUS', 'seven flag letters');
value('fault-match-flags-empty', 'serial', ['links', 0, 'faults', 0, 'match', 'tcp_flags'], '', 'no flag letters');
value('fault-match-min-over-max', 'serial', ['links', 0, 'faults', 0, 'match', 'min_len'], 1501, 'min_len above max_len');
value('fault-match-port', 'serial', ['links', 0, 'faults', 0, 'match', 'port'], 70000, 'a port of 70000');
value('fault-match-unknown', 'serial', ['links', 0, 'faults', 0, 'match', 'flags'], 'S', 'a misspelt match field');
change('faults-nine', 'serial', 'links[0].faults', ['links', 0, 'faults'], 'nine faults on a link', (d) => {
  for (let i = 0; i < 8; i++) d.links[0].faults.push({ action: 'drop', p: 0.01 });
});
value('faults-not-array', 'serial', ['links', 0, 'faults'], { action: 'drop', p: 0.1 }, 'faults as one object');

// Applications.
missing('app-type-missing', 'serial', ['apps', 1, 'type'], 'an app without a type');
value('app-type-unknown', 'serial', ['apps', 1, 'type'], 'telnet', 'an app type that does not exist');
value('app-host-unknown', 'serial', ['apps', 1, 'host'], 'laptop', 'an app on a host that does not exist');
change('app-host-bridge', 'bridged', 'apps[0].host', ['apps', 0, 'host'], 'an app on a bridge', (d) => {
  d.apps[0].host = 'ptx';
  d.apps.pop();
});
value('app-to-unknown', 'serial', ['apps', 1, 'to'], 'laptop', 'a peer that does not exist');
value('app-to-self', 'serial', ['apps', 1, 'to'], 'pc', 'a ping to itself');
value('app-to-own-address', 'serial', ['apps', 3, 'to'], '10.0.7.1', "a peer at the app's own address");
value('app-to-loopback', 'serial', ['apps', 3, 'to'], '127.0.0.1', 'a peer on loopback');
value('app-to-leading-zero', 'serial', ['apps', 3, 'to'], '10.0.07.2', 'a peer address with a leading zero');
value('app-to-broadcast', 'serial', ['apps', 3, 'to'], '10.0.7.255', 'a peer at the broadcast address');
value('app-to-capitals', 'serial', ['apps', 1, 'to'], 'MCU', 'a peer name in capitals');
value('app-start-too-late', 'serial', ['apps', 1, 'start_ms'], 2000001, 'an app starting after the longest run');
value('app-unknown-field', 'serial', ['apps', 1, 'port'], 7, 'a port on a ping');
value('ping-count-zero', 'serial', ['apps', 1, 'count'], 0, 'a ping of 0 requests');
value('ping-size-huge', 'serial', ['apps', 1, 'size'], 65508, 'a ping payload over 65507 bytes');
missing('tcp-client-port-missing', 'serial', ['apps', 3, 'port'], 'a tcp_client without a port');
value('tcp-client-probe-number', 'serial', ['apps', 3, 'probe'], 1, 'probe as a number');
value('echo-client-connections-bytes', 'serial', ['apps', 2, 'connections'], 101, 'more connections than bytes');
value('echo-client-connections-pcbs', 'serial', ['apps', 2, 'connections'], 9, 'more connections than TCP sockets');
missing('echo-client-bytes-missing', 'serial', ['apps', 2, 'bytes'], 'an echo client without bytes');
value('echo-server-port-zero', 'serial', ['apps', 0, 'port'], 0, 'a server on port 0');
value('reqresp-rounds-empty', 'bridged', ['apps', 0, 'rounds'], [], 'no rounds');
value('reqresp-split-req', 'bridged', ['apps', 1, 'rounds', 0, 'split'], 100, 'a split as long as the request');
change('reqresp-resp-differs', 'bridged', 'apps[0].rounds[0]', ['apps', 0, 'rounds', 0], "a server's response size not the client's", (d) => {
  d.apps[0].rounds[0].resp = 300;
});
change('reqresp-rounds-count', 'bridged', 'apps[0].rounds', ['apps', 0, 'rounds'], 'a server with a round more than its client', (d) => {
  d.apps[0].rounds.push({ req: 1, resp: 1 });
});
value('reqresp-round-unknown', 'bridged', ['apps', 1, 'rounds', 0, 'think'], 5, 'a misspelt round field');
change('apps-65', 'serial', 'apps', ['apps'], '65 apps', (d) => {
  for (let i = 0; i < 61; i++) d.apps.push({ type: 'udp_echo_server', host: 'mcu', port: 100 + i });
});

// Capture.
value('capture-unknown', 'serial', ['capture', 0], 'eth', 'a capture of a link that does not exist');
value('capture-host', 'serial', ['capture', 0], 'pc', 'a capture of a host');
change('capture-twice', 'serial', 'capture[1]', ['capture', 1], 'a link captured twice', (d) => {
  d.capture.push('serial');
});

// Entries and members of the wrong JSON type.
value('link-not-object', 'serial', ['links', 0], 5, 'a link that is a number');
value('bridges-not-array', 'bridged', ['bridges'], 'ptx', 'bridges as a string');
value('bridge-not-object', 'bridged', ['bridges', 0], 'ptx', 'a bridge that is a string');
value('fault-not-object', 'serial', ['links', 0, 'faults', 0], 'drop', 'a fault that is a string');
value('match-not-object', 'serial', ['links', 0, 'faults', 0, 'match'], ['tcp'], 'a match that is an array');
value('app-not-object', 'serial', ['apps', 1], null, 'an app that is null');
value('apps-not-array', 'serial', ['apps'], {}, 'apps as an object');
value('round-not-object', 'bridged', ['apps', 0, 'rounds', 0], 100, 'a round that is a number');
value('capture-not-array', 'serial', ['capture'], 'serial', 'capture as a string');
value('capture-number', 'serial', ['capture', 0], 0, 'a capture entry that is a number');

// Subnets: a host reaches only its own subnet (ERR_RTE at run time before).
value('subnet-serial', 'serial', ['hosts', 1, 'addr'], '10.0.8.2/24', 'two hosts of one link on different /24s');
value('subnet-bridged', 'bridged', ['hosts', 1, 'addr'], '192.168.2.202/24', 'hosts joined by a bridge on different subnets');
value('subnet-narrow-prefix', 'serial', ['hosts', 1, 'addr'], '10.0.7.130/25', 'a /25 that leaves the other host out');
value('subnet-slash-32', 'serial', ['hosts', 1, 'addr'], '10.0.7.2/32', 'a /32, alone on its subnet');

// --- writing them -----------------------------------------------------------------------

const seen = new Set<string>();
for (const c of cases) {
  if (seen.has(c.name)) throw new Error(`two cases named ${c.name}`);
  seen.add(c.name);
}
for (const sub of ['scenarios', 'bases']) {
  rmSync(join(HERE, sub), { recursive: true, force: true });
  mkdirSync(join(HERE, sub));
}
for (const [name, doc] of Object.entries(bases)) writeFileSync(join(HERE, 'bases', `${name}.json`), pretty(doc));

const manifest = cases.map((c, i) => {
  const file = `${String(i + 1).padStart(3, '0')}-${c.name}.json`;
  let marked: string;
  if (c.edit) {
    const d = structuredClone(bases[c.base]) as Json;
    c.edit(d);
    marked = pretty(d, c.mark ?? null);
  } else {
    marked = c.text!(pretty(bases[c.base]!));
  }
  const { text: plain, line, column } = takeMark(marked);
  writeFileSync(join(HERE, 'scenarios', file), c.bytes ? c.bytes(plain) : plain);
  return { file, base: `${c.base}.json`, path: c.path, ...(line === undefined ? {} : { line, column }), fault: c.fault };
});
writeFileSync(join(HERE, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`${manifest.length} files in ${join(HERE, 'scenarios')} (${readdirSync(join(HERE, 'scenarios')).length} on disk)`);
