// The display filter box: green while the expression is good, red with the problem shown
// under it while it is not (Wireshark's way); a bad expression never replaces the filter
// in use. Applies as you type, since compiling and filtering are cheap. The parser and the
// field table are fetched when the box is first focused or typed in: they are not in the
// page's first download.
import { useId, useState } from 'react';
import type { FilterSource } from '../../core/packets/filter_facts.ts';

/** The rows of a capture point the filter keeps. */
export type RowFilter = (s: FilterSource) => Int32Array;

export interface FilterBoxProps {
  onApply: (rows: RowFilter | null, text: string) => void;
}

type FilterCode = [typeof import('../../core/packets/filter.ts'), typeof import('../../core/packets/filter_fields.ts')];
let filterCode: Promise<FilterCode> | null = null;
const loadFilter = (): Promise<FilterCode> =>
  (filterCode ??= Promise.all([import('../../core/packets/filter.ts'), import('../../core/packets/filter_fields.ts')]));

export function FilterBox({ onApply }: FilterBoxProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldNames, setFieldNames] = useState<readonly string[]>([]);
  const id = useId();

  const load = () => loadFilter().then(([filter, fields]) => (setFieldNames(fields.FIELD_NAMES), filter));
  // Calls keep their order (one promise), so the last text typed is the one applied.
  const change = (t: string) => {
    setText(t);
    void load().then(({ compileFilter, filterRows }) => {
      const c = compileFilter(t);
      if (c.ok) {
        setProblem(null);
        const test = c.test;
        onApply(test ? (s) => filterRows(s, test) : null, t);
      } else {
        setProblem(`${c.message} (at character ${c.at + 1})`);
      }
    });
  };

  const state = problem ? 'pl-filter-bad' : text.trim() ? 'pl-filter-ok' : '';
  return (
    <>
      <label className="pl-filter">
        Filter
        <input
          type="text"
          className={state}
          value={text}
          placeholder="tcp.analysis.flags || ip.addr==10.0.7.1"
          spellCheck={false}
          autoComplete="off"
          list={`${id}-fields`}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onFocus={() => void load()}
          onChange={(e) => change(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') change('');
          }}
        />
        <datalist id={`${id}-fields`}>
          {fieldNames.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </label>
      {text && (
        <button type="button" aria-label="Clear the filter" onClick={() => change('')}>
          ✕
        </button>
      )}
      {problem && (
        <div id={`${id}-problem`} className="pl-filter-error" role="status">
          {problem}
        </div>
      )}
    </>
  );
}
