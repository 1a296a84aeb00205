import { describe, expect, it } from 'vitest';
import { parseTcp, tcpFlagsLetters, tcpFlagsString, TH_ACK, TH_FIN, TH_PUSH, TH_SYN } from './tcp.ts';
import { listTcpOptions, optionsInfo, parseTcpOptions } from './tcp_options.ts';
import { optionsNode } from './tcp_options_tree.ts';
import * as B from './testing/build.ts';

const seg = (s: Partial<B.TcpSpec>): Uint8Array =>
  B.tcpSegment({ src: '10.0.0.1', dst: '10.0.0.2', sport: 49153, dport: 7891, seq: 0x01020304, ack: 0xfffffff0, flags: 'PA', win: 4321, ...s });

describe('TCP header (RFC 9293 3.1)', () => {
  it('reads every field', () => {
    const b = seg({ urg: 7, flags: 'PAU', payload: 10, options: B.options(B.opt.nop(), B.opt.nop(), B.opt.ts(5, 6)) });
    const h = parseTcp(b, 0, b.length, false);
    expect(h).toMatchObject({
      stage: 'full',
      sport: 49153,
      dport: 7891,
      seq: 0x01020304,
      ack: 0xfffffff0,
      hlen: 32,
      win: 4321,
      urp: 7,
      haveSegLen: true,
      payloadOff: 32,
      payloadLen: 10,
      malformed: false,
      bogusHlen: false,
    });
    expect(h.flags).toBe(TH_PUSH | TH_ACK | 0x20);
    expect(h.options!.tsval).toBe(5);
    expect(h.options!.tsecr).toBe(6);
  });

  it('stops where Wireshark stops on a segment cut short', () => {
    const b = seg({});
    expect(parseTcp(b, 0, 3, false).stage).toBe('none');
    expect(parseTcp(b, 0, 15, false).stage).toBe('ports');
    const h = parseTcp(b, 0, 18, false);
    expect(h.stage).toBe('header');
    expect(h.haveSegLen).toBe(false); // fewer bytes than the header length: "Short segment"
    expect(h.malformed).toBe(true);
  });

  it('accepts a data offset below 5 words only as far as Wireshark does', () => {
    const b = seg({});
    b[12] = 0x40;
    const h = parseTcp(b, 0, b.length, false);
    expect(h.bogusHlen).toBe(true);
    expect(h.malformed).toBe(false);
  });

  it('has no segment length inside an ICMP error', () => {
    const b = seg({ payload: 5 });
    expect(parseTcp(b, 0, b.length, true).haveSegLen).toBe(false);
  });

  it('names flags in Wireshark order', () => {
    expect(tcpFlagsString(TH_SYN | TH_ACK)).toBe('SYN, ACK');
    expect(tcpFlagsString(TH_FIN | TH_PUSH | TH_ACK)).toBe('FIN, PSH, ACK');
    expect(tcpFlagsString(0x1ff)).toBe('FIN, SYN, RST, PSH, ACK, URG, ECE, CWR, AE');
    expect(tcpFlagsString(0)).toBe('<None>');
    expect(tcpFlagsLetters(TH_SYN)).toBe('··········S·');
    expect(tcpFlagsLetters(TH_PUSH | TH_ACK)).toBe('·······AP···');
  });
});

describe('TCP options', () => {
  const opts = B.options(B.opt.mss(1460), B.opt.nop(), B.opt.ws(7), B.opt.sackPerm(), B.opt.ts(100, 0));

  it('reads MSS, window scale, SACK permitted and timestamps (RFC 9293, 7323, 2018)', () => {
    const o = parseTcpOptions(opts, 0, opts.length);
    expect(o).toMatchObject({ mss: 1460, wsShift: 7, wsRaw: 7, sackPerm: true, tsval: 100, tsecr: 0, sackCount: 0 });
    expect(o.error).toBeUndefined();
    expect(listTcpOptions(opts, o).map((x) => x.kind)).toEqual([2, 1, 3, 4, 8]);
  });

  it('writes Info words in option order', () => {
    expect(optionsInfo(opts, parseTcpOptions(opts, 0, opts.length), 0)).toBe(' MSS=1460 WS=128 SACK_PERM TSval=100 TSecr=0');
  });

  it('uses a window scale above 14 as 14 (RFC 7323 2.3)', () => {
    const b = B.options(B.opt.ws(15));
    const o = parseTcpOptions(b, 0, b.length);
    expect(o.wsShift).toBe(14);
    expect(optionsInfo(b, o, 0)).toBe(' WS=16384');
  });

  it('makes SACK edges relative to the peer base sequence number', () => {
    const b = B.options(
      B.opt.nop(),
      B.opt.nop(),
      B.opt.sack([
        [1201, 1501],
        [2001, 2101],
      ]),
    );
    const o = parseTcpOptions(b, 0, b.length);
    expect(o.sackCount).toBe(2);
    expect(optionsInfo(b, o, 1000)).toBe(' SLE=201 SRE=501 SLE=1001 SRE=1101');
  });

  it('skips an option of the wrong length with a note, as Wireshark does', () => {
    const b = new Uint8Array([2, 3, 5, 1]); // MSS with length 3, then a NOP
    const o = parseTcpOptions(b, 0, b.length);
    expect(o.mss).toBeUndefined();
    expect(listTcpOptions(b, o)[0]).toMatchObject({ kind: 2, len: 3, badLength: 4 });
    expect(optionsInfo(b, o, 0)).toBe('');
  });

  it('stops at a length that runs past the options', () => {
    const b = new Uint8Array([1, 1, 8, 10]);
    const o = parseTcpOptions(b, 0, b.length);
    expect(o.error!.message).toBe('Timestamps (option length = 10 bytes says option goes past end of options)');
    const n = optionsNode(b, 0, 4, o, 0, true, 0);
    expect(n.label).toBe('Options: (4 bytes), No-Operation (NOP), No-Operation (NOP)');
  });

  it('ends where the data ends, like the exception Wireshark throws there', () => {
    // 10 option bytes of 20: MSS and NOP whole, the SACK cut after its first block.
    const b = B.options(
      B.opt.mss(1460),
      B.opt.nop(),
      B.opt.nop(),
      B.opt.sack([
        [100, 200],
        [300, 400],
      ]),
    );
    const o = parseTcpOptions(b, 0, b.length, 16);
    expect(o).toMatchObject({ mss: 1460, sackCount: 1, cut: 'contained' });
    expect(optionsInfo(b, o, 0)).toBe(' MSS=1460 SLE=100 SRE=200');
    const n = optionsNode(b, 0, b.length, o, 0, false, 0);
    // the cut option's name stays out of the summary; its fields read so far are shown
    expect(n.label).toBe(`Options: (${b.length} bytes), Maximum segment size, No-Operation (NOP), No-Operation (NOP)`);
    expect(n.children!.at(-1)!.label).toBe('TCP Option - SACK 100-200');
    // a missing kind byte is read from the segment itself: the usual "[Malformed Packet]"
    expect(parseTcpOptions(b, 0, b.length, 4).cut).toBe('reported');
  });

  it('shows a D-SACK (RFC 2883) and reads past a SACK option without a block', () => {
    const b = B.options(B.opt.nop(), B.opt.nop(), B.opt.sack([[900, 950]]));
    const o = parseTcpOptions(b, 0, b.length, b.length, 1000, true);
    const sackNode = optionsNode(b, 0, b.length, o, 0, false, 1000).children![2]!;
    expect(sackNode.children!.map((c) => c.label)).toContain('[D-SACK Left Edge = 900 (relative)]');
    const empty = new Uint8Array([1, 1, 5, 2]);
    expect(parseTcpOptions(empty, 0, 4, 4, 1000, true)).toMatchObject({ cut: 'reported', throwAt: 2 });
  });

  it('treats zeros after EOL as padding, anything else as an error', () => {
    const pad = new Uint8Array([1, 0, 0, 0]);
    expect(listTcpOptions(pad, parseTcpOptions(pad, 0, 4)).map((x) => x.kind)).toEqual([1, 0, 0, 0]);
    const junk = new Uint8Array([0, 2, 4, 5]);
    expect(parseTcpOptions(junk, 0, 4).error!.message).toBe('Non-zero header padding');
    expect(parseTcpOptions(junk, 0, 4).mss).toBeUndefined();
  });
});
