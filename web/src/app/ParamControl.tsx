// One parameter as a control: number box (committed on Enter or leaving the box, so a
// half-typed number never runs), checkbox or choice. Shows the default and marks changes.
import { useEffect, useId, useState } from 'react';
import type { FieldSpec } from './schema_fields.ts';

export function ParamControl(props: {
  spec: FieldSpec;
  value: unknown;
  changed: boolean;
  onChange: (v: unknown) => void;
  onReset: () => void;
}) {
  const { spec, value, changed, onChange, onReset } = props;
  const id = useId();
  const [text, setText] = useState(String(value ?? ''));
  useEffect(() => setText(String(value ?? '')), [value]);
  const help = `${spec.description}${spec.default !== undefined ? ` (default ${String(spec.default)})` : ''}`;
  const commit = () => {
    if (text.trim() === String(value ?? '')) return;
    const n = Number(text);
    onChange(text.trim() === '' || Number.isNaN(n) ? text : n);
  };
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
    control = (
      <input
        id={id}
        type="number"
        value={text}
        min={spec.min}
        max={spec.max}
        step={spec.kind === 'integer' ? 1 : 'any'}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    );
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
