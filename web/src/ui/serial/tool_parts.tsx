// The pieces every tool of the serial panel uses: a labelled number box that refuses what is
// out of range, and the tool's output as terminal lines (a transcript's marked and coloured).
import { useEffect, useRef } from 'react';
import { markClass } from './transcript.ts';

export function NumberField(props: { label: string; value: number; min: number; max: number; onChange: (v: number) => void }) {
  const { label, value, min, max, onChange } = props;
  return (
    <label className="tool-field">
      {label}{' '}
      <input
        type="number"
        value={value}
        min={min}
        max={max}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (Number.isInteger(v) && v >= min && v <= max) onChange(v);
        }}
      />
    </label>
  );
}

export function ToolOutput(props: { label: string; lines: string[]; marked?: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [props.lines]);
  if (props.lines.length === 0) return null;
  return (
    <pre className="tool-output" aria-label={props.label} ref={ref}>
      {props.marked ? props.lines.map((l, i) => <MarkedLine key={i} line={l} last={i === props.lines.length - 1} />) : props.lines.join('\n')}
    </pre>
  );
}

function MarkedLine(props: { line: string; last: boolean }) {
  const text = props.last ? props.line : `${props.line}\n`;
  const cls = markClass(props.line);
  return cls ? <span className={cls}>{text}</span> : <>{text}</>;
}
