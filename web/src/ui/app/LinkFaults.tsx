// A link's random faults in the Parameters panel: loss, corruption, duplication and delay
// (which reorders: frames behind a delayed one pass it), a probability each way, and how
// long a delay lasts. A change sets the link's whole `faults` array (one `--set`, so the URL
// keeps it) and runs again; targeted rules and what-if rules stay as they are.
import type { Fault, FaultAction } from '../../core/scenarios/types.ts';
import { cellOf, DIRS, FAULT_ACTIONS, readFaults, withCell, writeFaults, type Dir, type LinkFaults as Faults, type RandomFault } from './link_faults.ts';
import { NumberBox } from './NumberBox.tsx';
import { fieldsOf } from '../common/schema_fields.ts';
import { getState, runNow, setParam, setState } from '../common/store.ts';

const WORDS: Record<FaultAction, string> = { drop: 'Loss', corrupt: 'Corruption', duplicate: 'Duplication', delay: 'Delay' };
const HOW: Record<FaultAction, string> = {
  drop: 'a frame is lost',
  corrupt: 'one bit of a frame flips',
  duplicate: 'a frame is sent twice',
  delay: 'a frame is held back (frames behind it may pass it: reordering)',
};
const fault = fieldsOf('fault');
const pSpec = fault.find((f) => f.key === 'p');
const delaySpec = fault.find((f) => f.key === 'delay_us');

export interface LinkFaultsProps {
  link: string;
  /** the names of the link's ends, a and b */
  ends: [string, string];
  /** the link's faults with the changed parameters applied, and as the scenario has them */
  faults: readonly Fault[] | undefined;
  baseFaults: readonly Fault[] | undefined;
}

export function LinkFaults({ link, ends, faults, baseFaults }: LinkFaultsProps) {
  const lf = readFaults(faults);
  const base = readFaults(baseFaults);
  const path = `links.${link}.faults`;
  const changed = JSON.stringify(writeFaults(lf)) !== JSON.stringify(writeFaults(base));
  // The scenario's own faults again: no `--set` for them, so the URL stays short.
  const write = (next: Faults) => {
    const value = writeFaults(next);
    if (JSON.stringify(value) === JSON.stringify(writeFaults(base))) resetFaults(path);
    else void setParam(path, value);
  };
  const way = (d: Dir) => (d === 'ab' ? `${ends[0]} → ${ends[1]}` : `${ends[1]} → ${ends[0]}`);
  const box = (action: FaultAction, d: Dir, key: keyof RandomFault) => {
    const c = cellOf(lf, action, d);
    const spec = key === 'p' ? pSpec : delaySpec;
    const what = key === 'p' ? WORDS[action] : 'Delay by (µs)';
    // A delay's amount means nothing while no frame is delayed (and has no entry to go in).
    const off = key === 'delayUs' && c.p === 0;
    return (
      <td key={d}>
        <NumberBox
          value={c[key]}
          min={spec?.min}
          max={spec?.max}
          integer={spec?.kind === 'integer'}
          label={`${what}, ${way(d)} (${link})`}
          title={
            key === 'p'
              ? `${what}, ${way(d)}: the probability (0 .. 1) that ${HOW[action]}`
              : `${delaySpec?.description ?? ''}${off ? ' Set a delay probability first.' : ''}`
          }
          disabled={off}
          className={c[key] !== cellOf(base, action, d)[key] ? 'fault-changed' : undefined}
          onCommit={(v) => write(withCell(lf, action, d, { [key]: v }))}
        />
      </td>
    );
  };
  return (
    <div className="faults">
      <table className="faults-table" aria-label={`Random faults on ${link}`}>
        <thead>
          <tr>
            <th scope="col">
              Random faults
              {changed && (
                <button
                  type="button"
                  className="param-reset"
                  aria-label={`Reset the faults of ${link}`}
                  title="Back to the scenario's faults"
                  onClick={() => resetFaults(path)}
                >
                  ↺
                </button>
              )}
            </th>
            {DIRS.map((d) => (
              <th key={d} scope="col">
                {way(d)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {FAULT_ACTIONS.map((action) => (
            <tr key={action}>
              <th scope="row" title={`The probability that ${HOW[action]}`}>
                {WORDS[action]}
              </th>
              {DIRS.map((d) => box(action, d, 'p'))}
            </tr>
          ))}
          <tr>
            <th scope="row" title={delaySpec?.description}>
              Delay by (µs)
            </th>
            {DIRS.map((d) => box('delay', d, 'delayUs'))}
          </tr>
        </tbody>
      </table>
      {lf.kept.length > 0 && (
        <p className="muted faults-kept">
          {lf.kept.length === 1
            ? 'One more fault rule (targeted, or for some frames only) applies'
            : `${lf.kept.length} more fault rules (targeted, or for some frames only) apply`}{' '}
          as written.
        </p>
      )}
    </div>
  );
}

/** Every change of the link's faults undone, whether set whole or entry by entry (a URL
 *  may hold `links.eth.faults.0.p=0.05`), in one re-run. */
function resetFaults(path: string): void {
  setState({ sets: getState().sets.filter((a) => !a.startsWith(`${path}=`) && !a.startsWith(`${path}.`)) });
  void runNow();
}
