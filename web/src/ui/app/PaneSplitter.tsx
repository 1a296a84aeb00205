// A gutter between the panes that a pointer drags (or the arrow keys move): the teacher
// gives the ladder the room the lesson needs. It reports the split as the fraction of the
// panes' box on the left of (or above) it.
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

const SPLIT_MIN = 0.15;
const SPLIT_MAX = 0.85;
const KEY_STEP = 0.05;

function clampSplit(f: number): number {
  return Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, f));
}

export interface PaneSplitterProps {
  orientation: 'vertical' | 'horizontal';
  /** the fraction on the left (vertical) or above (horizontal) */
  value: number;
  onChange: (f: number) => void;
  label: string;
}

export function PaneSplitter({ orientation, value, onChange, label }: PaneSplitterProps) {
  const ref = useRef<HTMLDivElement>(null);
  const vertical = orientation === 'vertical';
  const fractionAt = (e: PointerEvent) => {
    const box = ref.current?.parentElement?.getBoundingClientRect();
    if (!box) return value;
    return clampSplit(vertical ? (e.clientX - box.left) / box.width : (e.clientY - box.top) / box.height);
  };
  const onPointerDown = (e: PointerEvent) => {
    e.preventDefault();
    ref.current?.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    if (ref.current?.hasPointerCapture(e.pointerId)) onChange(fractionAt(e));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const less = vertical ? 'ArrowLeft' : 'ArrowUp';
    const more = vertical ? 'ArrowRight' : 'ArrowDown';
    if (e.key !== less && e.key !== more) return;
    e.preventDefault();
    e.stopPropagation(); // the arrows are the playback's step keys elsewhere
    onChange(clampSplit(value + (e.key === more ? KEY_STEP : -KEY_STEP)));
  };
  return (
    <div
      ref={ref}
      className={`pane-splitter ${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuemin={SPLIT_MIN * 100}
      aria-valuemax={SPLIT_MAX * 100}
      aria-valuenow={Math.round(value * 100)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onKeyDown={onKeyDown}
    />
  );
}
