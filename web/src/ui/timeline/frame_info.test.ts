import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../core/engine/trace_types.ts';
import type { PacketRow } from '../../core/packets/index.ts';
import { shortLabel } from './frame_info.ts';
import { buildLadderModel } from './ladder_model.ts';
import { SenderStateIndex } from '../../core/run/sender_state.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';

const row = (p: Partial<PacketRow>): PacketRow => ({
  no: 1,
  timeS: 0,
  source: '10.0.0.1',
  destination: '10.0.0.2',
  protocol: 'TCP',
  length: 40,
  info: '',
  flags: [],
  colour: { name: '', fg: '#000000', bg: '#ffffff' },
  ...p,
});
const tcp = (flags: number, seqRel: number, ackRel: number, len: number) => ({
  stream: 0,
  srcPort: 1000,
  dstPort: 7,
  flags,
  seqRel,
  ackRel,
  len,
  winValue: 100,
  win: 100,
});

describe('frame labels', () => {
  it("Wireshark's short form, relative numbers, Ack only with the ACK flag", () => {
    expect(shortLabel(row({ tcp: tcp(0x18, 1, 1, 1024) }))).toBe('[PSH, ACK] Seq=1 Ack=1 Len=1024');
    expect(shortLabel(row({ tcp: tcp(0x02, 0, 0, 0) }))).toBe('[SYN] Seq=0 Len=0');
    expect(shortLabel(row({ tcp: tcp(0x11, 201, 201, 0) }))).toBe('[FIN, ACK] Seq=201 Ack=201 Len=0');
  });

  it('ICMP echo and other protocols', () => {
    const info = 'Echo (ping) request  id=0x0001, seq=1/256, ttl=64 (reply in 2)';
    expect(shortLabel(row({ protocol: 'ICMP', info }))).toBe('Echo request seq=1');
    expect(shortLabel(row({ protocol: 'UDP', info: '5000 → 53 Len=12' }))).toBe('UDP 5000 → 53 Len=12');
    expect(shortLabel(undefined)).toBe('');
  });
});

describe('sender state', () => {
  const kinds = ['tcp.state', 'tcp.cwnd', 'tcp.ssthresh', 'tcp.rto.value'];
  const states = ['CLOSED', 'ESTABLISHED'];
  const ev = (time: number, kind: string, a: number, b = 0, c = 0, lport = 1000): TraceEvent => ({
    time,
    seq: 0,
    kind: kinds.indexOf(kind),
    host: 0,
    conn: 0,
    lport,
    rport: 7,
    a,
    b,
    c,
    d: 0,
    cause: 0,
  });
  const ix = new SenderStateIndex(
    [
      ev(0, 'tcp.state', 0, 1),
      ev(0, 'tcp.cwnd', 2048),
      ev(0, 'tcp.ssthresh', 0xffffffff),
      ev(100, 'tcp.rto.value', 1_000_000, 40_000, 20_000),
      ev(200, 'tcp.cwnd', 3072),
      ev(200, 'tcp.cwnd', 9999, 0, 0, 2000),
    ],
    kinds,
    states,
  );

  it('the last value of each at or before the instant, for that connection only', () => {
    expect(ix.at(0, 1000, 7, 150)).toEqual({ state: 'ESTABLISHED', cwnd: 2048, ssthresh: 0xffffffff, rtoUs: 1_000_000, srttUs: 40_000, rttvarUs: 20_000 });
    expect(ix.at(0, 1000, 7, 200)?.cwnd).toBe(3072);
    expect(ix.at(0, 1000, 7, 50)?.rtoUs).toBeUndefined();
    expect(ix.at(1, 1000, 7, 50)).toBeNull();
  });
});

describe('ladder model (nfc-bridge-1080)', () => {
  it('labels, causes, drop reasons and the sender state on hover', async () => {
    const m = buildLadderModel(await shippedRun('nfc-bridge-1080'));
    const firstData = m.frames.findIndex((f) => f.fate === 1);
    expect(m.label(firstData)).toBe('[PSH, ACK] Seq=1 Ack=1 Len=1024');
    expect(m.drop(firstData)).toBe('nfc: module busy with another packet, arriving packet discarded');
    const retx = m.frames.findIndex((f) => f.retx !== 255);
    expect(m.retx(retx)).toBe('RTO expired');
    // The bridge's copy of a retransmission is one too.
    const copy = m.frames.findIndex((f) => f.parent === m.frames[retx]!.id);
    expect(m.retx(copy)).toBe('RTO expired');
    const tip = m.tooltip(retx);
    expect(tip).toContain('retransmission: RTO expired');
    // No RTT sample yet, so no srtt (lwIP's active opener takes none from the SYN-ACK):
    // the RTO is the initial one.
    expect(tip.at(-1)).toBe('appliance: ESTABLISHED cwnd=1024 ssthresh=2048 RTO=1.0 s');
    expect(m.indexOf(m.frames[copy]!.id)).toBe(copy);
  });
});
