// The ladder as Mermaid, on real runs of the shipped scenarios: its structure, and Mermaid's
// own parser (which runs in Node for sequence diagrams) takes it.
import mermaid from 'mermaid';
import { describe, expect, it } from 'vitest';
import { Fate, NONE } from '../../core/engine/trace_types.ts';
import { buildLadderModel } from './ladder_model.ts';
import { ladderMermaid, mermaidText } from './mermaid.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';

const MESSAGE = /^ {2}(L\d+)(->>|-x|-\))(L\d+): (.*)$/;

describe('mermaidText', () => {
  it('writes what would end the text or open HTML as entity codes, and line breaks as spaces', () => {
    expect(mermaidText('a;b #1 <x>\n  c')).toBe('a#59;b #35;1 #60;x#62; c');
  });
});

describe.each(['arduino-slip', 'nfc-bridge-1080', 'ethernet-bulk-lossy'] as const)('the ladder of %s as Mermaid', async (name) => {
  const run = await shippedRun(name);
  const model = buildLadderModel(run);
  const text = ladderMermaid(model, run.result.world);
  const lines = text.trimEnd().split('\n');
  const messages = lines.map((l) => MESSAGE.exec(l)).filter((m): m is RegExpExecArray => m !== null);

  it('is a sequence diagram with a participant per lifeline', () => {
    expect(lines[0]).toBe('sequenceDiagram');
    const participants = lines.filter((l) => l.startsWith('  participant '));
    expect(participants).toHaveLength(model.lanes.lifelines.length);
    model.lanes.lifelines.forEach((l, i) => expect(participants[i]).toContain(`participant L${i} as ${mermaidText(l.label)}`));
  });

  it('has one message per frame, between declared participants, in the order sent', () => {
    expect(messages).toHaveLength(model.frames.length);
    for (const m of messages) {
      expect(Number(m[1]!.slice(1))).toBeLessThan(model.lanes.lifelines.length);
      expect(Number(m[3]!.slice(1))).toBeLessThan(model.lanes.lifelines.length);
    }
    messages.forEach((m, i) => expect(m[4]!.startsWith(mermaidText(model.label(i)))).toBe(true));
  });

  it('draws lost frames as -x with their reason, and only those', () => {
    const lost = model.frames.filter((f) => f.fate === Fate.Dropped).length;
    const crosses = messages.filter((m) => m[2] === '-x');
    expect(crosses).toHaveLength(lost);
    for (const m of crosses) expect(m[4]).toMatch(/(\(|, )lost: /);
  });

  it('gives each retransmission a stack sent its cause, and notes each RTO expiry', () => {
    const retx = model.frames.filter((f, i) => f.parent === NONE && model.retx(i) !== null).length;
    expect(messages.filter((m) => m[4]!.includes('(retransmission: '))).toHaveLength(retx);
    const expiries = model.timers.filter((t) => t.kind === 'rto' && t.end === 'expire').length;
    expect(lines.filter((l) => / {2}Note over L\d+: RTO expired /.test(l))).toHaveLength(expiries);
  });

  it("parses with Mermaid's own parser", async () => {
    await expect(mermaid.parse(text)).resolves.toMatchObject({ diagramType: 'sequence' });
  });
});

it('the NFC run has something to show: modules, a loss at a module, retransmissions', async () => {
  const run = await shippedRun('nfc-bridge-1080');
  const model = buildLadderModel(run);
  const text = ladderMermaid(model, run.result.world);
  const module = model.lanes.lifelines.findIndex((l) => l.kind === 'module');
  expect(module).toBeGreaterThan(0);
  expect(text).toMatch(new RegExp(`-xL${module}: .*\\(lost: `));
  expect(text).toMatch(/->>L\d+: \[PSH, ACK\] .*\(retransmission: RTO expired\)/);
  expect(text).toMatch(/Note over L\d+: RTO expired /);
});
