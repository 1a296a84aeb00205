import { describe, expect, it } from 'vitest';
import { findRuns, groupWording, summarise } from './ladder_groups.ts';

describe('ladder groups', () => {
  it('runs: frames along one hop closer than a row, per hop, in order', () => {
    const m = (hop: string, y: number) => ({ hop, y });
    const runs = findRuns([m('0>', 10), m('1<', 12), m('0>', 20), m('0>', 45), m('0>', 30), m('1<', 100)], 16);
    expect(runs.map((r) => r.map((x) => `${x.hop}${x.y}`))).toEqual([['0>10', '0>20', '0>30', '0>45'], ['1<12'], ['1<100']]);
    expect(findRuns([m('0>', 10), m('0>', 26)], 16)).toHaveLength(2);
  });

  it('one line for many labels: shared words, values or ranges', () => {
    expect(summarise(['[ACK] Seq=1 Ack=1449 Len=0', '[ACK] Seq=1 Ack=52129 Len=0', '[ACK] Seq=1 Ack=2897 Len=0'])).toBe('[ACK] Seq=1 Ack=1449…52129 Len=0');
    expect(summarise(['[SYN] Seq=0 Len=0', '[SYN, ACK] Seq=0 Ack=1 Len=0', '[ACK] Seq=1 Ack=1 Len=0'])).toBe('[SYN]…[ACK] Seq=0…1 Len=0');
    expect(summarise(['Echo request seq=1', 'Echo request seq=2'])).toBe('Echo request seq=1…2');
    expect(summarise([])).toBe('');
    // an Ethernet link's ARP exchange opens the burst: the line is the burst's
    expect(summarise(['Who has 10.0.0.2? Tell 10.0.0.1', '[SYN] Seq=0 Len=0', '[ACK] Seq=1 Ack=1 Len=0'])).toBe('[SYN]…[ACK] Seq=0…1 Len=0');
    expect(summarise(['Who has 10.0.0.2? Tell 10.0.0.1', 'Who has 10.0.0.2? Tell 10.0.0.1'])).toBe('Who has 10.0.0.2? Tell 10.0.0.1');
  });

  it('the head says how many and how many were resent or lost, first', () => {
    const labels = ['[ACK] Seq=1 Ack=1449 Len=0', '[ACK] Seq=1 Ack=2897 Len=0'];
    expect(groupWording(37, 0, 0, labels)).toEqual({ head: '×37', whole: '×37 [ACK] Seq=1 Ack=1449…2897 Len=0' });
    expect(groupWording(37, 3, 2, labels).head).toBe('×37 (3 resent, 2 lost)');
    expect(groupWording(2, 0, 1, []).whole).toBe('×2 (1 lost)');
  });
});
