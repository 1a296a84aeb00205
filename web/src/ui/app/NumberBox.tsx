// A number box that commits on Enter or on leaving it, so a half-typed number never runs.
// What is not a number goes on as the text typed, for the validator to name.
import { useEffect, useState } from 'react';

export interface NumberBoxProps {
  value: unknown;
  onCommit: (v: unknown) => void;
  id?: string;
  min?: number;
  max?: number;
  integer?: boolean;
  label?: string;
  title?: string;
  disabled?: boolean;
  className?: string;
}

export function NumberBox({ value, onCommit, id, min, max, integer, label, title, disabled, className }: NumberBoxProps) {
  const [text, setText] = useState(String(value ?? ''));
  useEffect(() => setText(String(value ?? '')), [value]);
  const commit = () => {
    if (text.trim() === String(value ?? '')) return;
    const n = Number(text);
    onCommit(text.trim() === '' || Number.isNaN(n) ? text : n);
  };
  return (
    <input
      id={id}
      type="number"
      className={className}
      aria-label={label}
      title={title}
      disabled={disabled}
      value={text}
      min={min}
      max={max}
      step={integer ? 1 : 'any'}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}
