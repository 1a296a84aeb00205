// Our colouring rules against Wireshark's own default "colorfilters" file (installed with
// tshark): the same names, in the same order, with the same colours.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colourFor, colourRules, noFacts } from './colour.ts';

const FILE = '/usr/share/wireshark/colorfilters';

interface FileRule {
  name: string;
  bg: string;
  fg: string;
}

function readColorfilters(): FileRule[] {
  const hex = (c: string): string =>
    '#' +
    c
      .split(',')
      .map((v) => (Number(v) >> 8).toString(16).padStart(2, '0'))
      .join('');
  return readFileSync(FILE, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('@'))
    .map((l) => {
      const m = /^@([^@]*)@[^@]*@\[([\d,]+)\]\[([\d,]+)\]/.exec(l)!;
      return { name: m[1]!, bg: hex(m[2]!), fg: hex(m[3]!) };
    });
}

describe('colouring rules', () => {
  const file = readColorfilters();

  it('take their names and colours from Wireshark 4.0 default file', () => {
    for (const r of colourRules()) {
      const f = file.find((x) => x.name === r.name);
      expect(f, r.name).toBeDefined();
      expect({ name: r.name, fg: r.fg, bg: r.bg }).toEqual(f);
    }
  });

  it('keep Wireshark order', () => {
    const order = file.map((f) => f.name);
    const ours = colourRules().map((r) => order.indexOf(r.name));
    expect(ours).toEqual([...ours].sort((a, b) => a - b));
  });

  it('pick the first rule that matches', () => {
    const f = noFacts();
    f.tcp = f.tcpSynOrFin = true;
    expect(colourFor(f).name).toBe('TCP SYN/FIN');
    f.badTcp = true;
    expect(colourFor(f).name).toBe('Bad TCP');
    const icmpErr = noFacts();
    icmpErr.icmp = icmpErr.icmpError = icmpErr.udp = true;
    expect(colourFor(icmpErr).name).toBe('ICMP errors');
    const ttl = noFacts();
    ttl.udp = true;
    ttl.ipDst = 0x0a000002;
    ttl.ipTtl = 2;
    expect(colourFor(ttl).name).toBe('TTL low or unexpected');
    ttl.ipDst = 0xe00000fb; // 224.0.0.251 (mDNS) may use any TTL
    ttl.ipTtl = 255;
    expect(colourFor(ttl).name).toBe('UDP');
    expect(colourFor(noFacts())).toEqual({ name: '', fg: '#000000', bg: '#ffffff' });
  });
});
