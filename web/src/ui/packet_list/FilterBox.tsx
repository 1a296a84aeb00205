// The display filter box: green while the expression is good, red with the problem shown
// under it while it is not (Wireshark's way); a bad expression never replaces the filter
// in use. Applies as you type, since compiling and filtering are cheap.
import { useId, useState } from 'react';
import { compileFilter, type RowPredicate } from '../../core/packets/filter.ts';
import { FIELD_NAMES } from '../../core/packets/filter_fields.ts';

export interface FilterBoxProps {
  onApply: (test: RowPredicate | null, text: string) => void;
}

export function FilterBox({ onApply }: FilterBoxProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const change = (t: string) => {
    setText(t);
    const c = compileFilter(t);
    if (c.ok) {
      setProblem(null);
      onApply(c.test, t);
    } else {
      setProblem(`${c.message} (at character ${c.at + 1})`);
    }
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
          onChange={(e) => change(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') change('');
          }}
        />
        <datalist id={`${id}-fields`}>
          {FIELD_NAMES.map((n) => (
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
