// One parameter as a control: number box (NumberBox.tsx), checkbox or choice. Shows the
// default and marks changes.
import { useId } from 'react';
import { NumberBox } from './NumberBox.tsx';
import type { FieldSpec } from '../common/schema_fields.ts';

export function ParamControl(props: { spec: FieldSpec; value: unknown; changed: boolean; onChange: (v: unknown) => void; onReset: () => void }) {
  const { spec, value, changed, onChange, onReset } = props;
  const id = useId();
  const help = `${spec.description}${spec.default !== undefined ? ` (default ${String(spec.default)})` : ''}`;
  let control;
  if (spec.kind === 'boolean') {
    control = <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  } else if (spec.kind === 'enum') {
    control = (
      <select id={id} value={String(value ?? '')} onChange={(e) => onChange(typeof spec.choices?.[0] === 'number' ? Number(e.target.value) : e.target.value)}>
        {spec.choices?.map((c) => (
          <option key={String(c)} value={String(c)}>
            {String(c)}
          </option>
        ))}
      </select>
    );
  } else {
    control = <NumberBox id={id} value={value} min={spec.min} max={spec.max} integer={spec.kind === 'integer'} onCommit={onChange} />;
  }
  return (
    <div className={`param${changed ? ' param-changed' : ''}`} title={help}>
      <label htmlFor={id}>{spec.title}</label>
      {control}
      {changed && (
        <button type="button" className="param-reset" onClick={onReset} aria-label={`Reset ${spec.title}`}>
          ↺
        </button>
      )}
    </div>
  );
}
