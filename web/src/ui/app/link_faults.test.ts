import { describe, expect, it } from 'vitest';
import { applySet, formatErrors, validateScenario } from '../../core/scenarios/index.ts';
import type { Fault, Scenario } from '../../core/scenarios/types.ts';
import { shippedText } from '../../core/run/testing/test_runs.ts';
import { cellOf, readFaults, withCell, writeFaults } from './link_faults.ts';

const lossy = JSON.parse(shippedText('ethernet-bulk-lossy')) as Scenario;

/** The scenario with the link's faults set as the panel sets them (one `--set`). */
function setFaults(faults: unknown[]) {
  return validateScenario(applySet(lossy, `links.eth.faults=${JSON.stringify(faults)}`));
}

describe('the panel reads and writes a link’s random faults', () => {
  it('reads one entry for both directions as the same value each way, and writes it back as it was', () => {
    const lf = readFaults(lossy.links[0]!.faults);
    expect(cellOf(lf, 'drop', 'ab').p).toBe(0.02);
    expect(cellOf(lf, 'drop', 'ba').p).toBe(0.02);
    expect(cellOf(lf, 'corrupt', 'ab').p).toBe(0);
    expect(writeFaults(lf)).toEqual(lossy.links[0]!.faults);
  });

  it('splits by direction when the directions differ, and leaves out what is at 0', () => {
    const lf = withCell(readFaults(lossy.links[0]!.faults), 'drop', 'ab', { p: 0.05 });
    expect(writeFaults(lf)).toEqual([
      { action: 'drop', p: 0.05, dir: 'ab' },
      { action: 'drop', p: 0.02, dir: 'ba' },
    ]);
    expect(writeFaults(withCell(lf, 'drop', 'ba', { p: 0 }))).toEqual([{ action: 'drop', p: 0.05, dir: 'ab' }]);
    expect(writeFaults(withCell(withCell(lf, 'drop', 'ba', { p: 0 }), 'drop', 'ab', { p: 0 }))).toEqual([]);
  });

  it('gives a delay its amount, the default until one is set', () => {
    const lf = withCell(readFaults([]), 'delay', 'ba', { p: 0.1 });
    expect(writeFaults(lf)).toEqual([{ action: 'delay', p: 0.1, dir: 'ba', delay_us: 200_000 }]);
    expect(writeFaults(withCell(lf, 'delay', 'ba', { delayUs: 1500 }))).toEqual([{ action: 'delay', p: 0.1, dir: 'ba', delay_us: 1500 }]);
  });

  it('keeps targeted rules and rules that match some frames as written, in their places', () => {
    const faults: Fault[] = [
      { action: 'drop', nth: 3, dir: 'ab' },
      { action: 'corrupt', p: 0.1 },
      { action: 'duplicate', p: 0.2, match: { proto: 'tcp' } },
      { action: 'corrupt', p: 0.3, dir: 'ab' }, // a second corrupt a→b: not the box's
    ];
    const lf = readFaults(faults);
    expect(lf.kept).toEqual([faults[0], faults[2], faults[3]]);
    expect(cellOf(lf, 'corrupt', 'ab').p).toBe(0.1);
    expect(cellOf(lf, 'duplicate', 'ab').p).toBe(0);
    expect(writeFaults(lf)).toEqual(faults);
    expect(writeFaults(withCell(lf, 'drop', 'ba', { p: 0.5 }))).toEqual([faults[0], { action: 'drop', p: 0.5, dir: 'ba' }, faults[1], faults[2], faults[3]]);
  });

  it('writes what the schema takes as one `--set`', () => {
    const lf = withCell(withCell(readFaults(lossy.links[0]!.faults), 'duplicate', 'ab', { p: 0.01 }), 'delay', 'ab', { p: 0.1, delayUs: 50_000 });
    const v = setFaults(writeFaults(lf));
    expect(v.ok).toBe(true);
    if (v.ok) expect(readFaults(v.scenario.links[0]!.faults)).toEqual(lf);
  });

  it('hands a value the schema refuses to the validator, which names it', () => {
    const v = setFaults(writeFaults(withCell(readFaults([]), 'drop', 'ab', { p: 1.5 })));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(formatErrors(v.errors, 'ethernet-bulk-lossy')).toMatch(/faults.*p/);
  });
});
