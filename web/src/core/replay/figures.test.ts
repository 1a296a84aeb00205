// The seed's packet lists beside a run's capture (figures.ts), on the real engine: the NFC
// paper's Fig. 5.10 session, whose nine TCP segments the model gives in the paper's order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/run.ts';
import type { ReferenceFigure } from '../scenarios/reference.ts';
import { compareFigure, sameSegment } from './figures.ts';

const sessions = JSON.parse(readFileSync(new URL('../scenarios/replays/nfc-bridge-sessions.json', import.meta.url), 'utf8'));
const fig510: ReferenceFigure = sessions.reference.figures.find((f: ReferenceFigure) => f.label === 'Fig. 5.10');
const shipped = JSON.parse(readFileSync(new URL('../scenarios/shipped/nfc-bridge-1080.json', import.meta.url), 'utf8'));
for (const h of shipped.hosts) h.stack.tcp_rto_initial_ms = 5000; // Fig. 5.10's run

describe('a seed packet list beside a capture', () => {
  it('the same segment is the same Info but for the window', () => {
    expect(sameSegment('49153 → 7891 [SYN] Seq=0 Win=0 Len=0 MSS=1024', '49153 → 7891 [SYN] Seq=0 Win=8096 Len=0 MSS=1024')).toBe(true);
    expect(sameSegment('[TCP Dup ACK 7#1] 7891 → 49153 [ACK] Seq=1025', '[TCP Dup ACK 5#1] 7891 → 49153 [ACK] Seq=1025')).toBe(false);
  });

  it("pairs the seed's TCP rows with ours in order; its ARP rows stand alone", async () => {
    const c = compareFigure(fig510, await runScenario(JSON.stringify(shipped)));
    expect(c.pairs.slice(0, 2).map((p) => [p.seed!.protocol, p.ours, p.same])).toEqual([
      ['ARP', null, null],
      ['ARP', null, null],
    ]);
    expect(c.compared).toBe(9);
    expect(c.same).toBe(9);
    // times from each list's first TCP row
    expect(c.pairs[2]!.seed!.time).toBe(0);
    expect(c.pairs[2]!.ours!.time).toBe(0);
  });

  it('rows one list lacks are left unpaired, and a different segment is marked', async () => {
    const short = { ...fig510, rows: fig510.rows.slice(0, 6) }; // ARP, ARP, SYN, SYN-ACK, ACK, data
    short.rows[5] = { ...short.rows[5]!, info: short.rows[5]!.info.replace('Len=1024', 'Len=512') };
    const c = compareFigure(short, await runScenario(JSON.stringify(shipped)));
    expect(c.compared).toBe(4);
    expect(c.same).toBe(3);
    expect(c.pairs[5]!.same).toBe(false);
    expect(c.pairs.slice(6).every((p) => p.seed === null && p.ours !== null)).toBe(true);
    expect(c.pairs).toHaveLength(6 + 5);
  });
});
