// The "what if" menu of a frame, the same from the packet list and from the ladder: drop
// the frame, or delay it by one of a few amounts or by a typed one. Each adds a targeted
// fault rule (what_if.ts) and the store runs the scenario again. Keys as in any menu:
// arrows move, Enter chooses, Escape closes.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { formatDuration } from '../../core/run/time_format.ts';
import { directionName, frameTitle } from '../../core/run/frame_name.ts';
import type { RunModel } from '../../core/run/run_model.ts';
import { fieldsOf } from './schema_fields.ts';
import { addRule, setState, useApp } from './store.ts';
import { DELAY_CHOICES_US, isExtraCopy, ruleForFrame } from '../../core/run/what_if.ts';

export interface WhatIfMenuProps {
  frameId: number;
  /** where the menu opens, in window coordinates (it moves to stay inside the window) */
  x: number;
  y: number;
  /** `refocus`: give the focus back to where the menu was opened from (closed by a key or
   *  a choice, not by a click elsewhere) */
  onClose: (refocus: boolean) => void;
}

// The schema's range for a fault's delay, so the box never accepts what the run would refuse.
const delaySpec = fieldsOf('fault').find((f) => f.key === 'delay_us');
const DELAY_MIN_US = delaySpec?.min ?? 1;
const DELAY_MAX_US = delaySpec?.max ?? Number.MAX_SAFE_INTEGER;
const FOCUSABLE = 'button:not(:disabled), input:not(:disabled)';

export function WhatIfMenu({ frameId, x, y, onClose }: WhatIfMenuProps) {
  const run = useApp((s) => s.run);
  const viewLink = useApp((s) => s.link);
  const ref = useRef<HTMLDivElement>(null);
  const opened = useRef(run);
  const frame = run?.result.trace.frame(frameId);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    el.style.left = `${Math.max(0, Math.min(x, window.innerWidth - r.width - 4))}px`;
    el.style.top = `${Math.max(0, Math.min(y, window.innerHeight - r.height - 4))}px`;
    (el.querySelector<HTMLElement>(FOCUSABLE) ?? el).focus();
  }, [x, y]);

  useEffect(() => {
    const away = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose(false);
    };
    const blur = () => onClose(false);
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      window.removeEventListener('blur', blur);
    };
  }, [onClose]);

  // A new run (another rule, a parameter) renumbers the frames: the menu was about the old one.
  useEffect(() => {
    if (run !== opened.current) onClose(false);
  }, [run, onClose]);

  if (!run || !frame) return null;
  const choose = (action: 'drop' | 'delay', delayUs?: number, sideBySide = false) => {
    onClose(true);
    const rule = ruleForFrame(run.link(frame.link).frames, frame, run.link(frame.link).name, action, delayUs);
    if (!rule) return;
    if (sideBySide) setState({ compare: true });
    addRule(rule);
  };
  const title = frameTitle(run, frame, viewLink);
  const copy = isExtraCopy(frame);

  return (
    <div
      ref={ref}
      className="whatif-menu"
      role="menu"
      aria-label={title}
      tabIndex={-1}
      style={{ left: x, top: y }}
      onKeyDown={(e) => menuKeys(e, ref.current, () => onClose(true))}
    >
      <div className="whatif-menu-head" aria-hidden="true">
        {title} · {directionName(run.result.world, frame.link, frame.dir)}
      </div>
      <button type="button" role="menuitem" disabled={copy} onClick={() => choose('drop')}>
        Drop this frame
      </button>
      <button type="button" role="menuitem" disabled={copy} onClick={() => choose('drop', undefined, true)}>
        Drop it, side by side with the run without
      </button>
      <div className="whatif-menu-label" aria-hidden="true">
        Delay this frame by
      </div>
      <div className="whatif-menu-row" role="none">
        {DELAY_CHOICES_US.map((us) => (
          <button
            key={us}
            type="button"
            role="menuitem"
            disabled={copy}
            aria-label={`Delay this frame by ${formatDuration(us)}`}
            onClick={() => choose('delay', us)}
          >
            {formatDuration(us)}
          </button>
        ))}
      </div>
      <TypedDelay disabled={copy} onChoose={(us) => choose('delay', us)} />
      <div className="whatif-menu-note">{menuNote(run, frame, copy)}</div>
    </div>
  );
}

function menuNote(run: RunModel, frame: TraceFrame, copy: boolean): string {
  if (copy) return 'An extra copy made by a duplicate rule: no rule can target it.';
  return `Adds a fault rule on ${run.link(frame.link).name} and runs the scenario again.`;
}

/** "Delay by [ 750 ] ms": any amount the schema takes, chosen with Enter or the button. */
function TypedDelay({ disabled, onChoose }: { disabled: boolean; onChoose: (us: number) => void }) {
  const [text, setText] = useState('');
  const [bad, setBad] = useState(false);
  const commit = () => {
    const us = Math.round(Number(text) * 1000);
    const ok = text.trim() !== '' && us >= DELAY_MIN_US && us <= DELAY_MAX_US;
    setBad(!ok);
    if (ok) onChoose(us);
  };
  return (
    <div className="whatif-menu-row whatif-menu-typed" role="none">
      <input
        type="number"
        aria-label="Delay this frame by, in ms"
        aria-invalid={bad}
        title={`${formatDuration(DELAY_MIN_US)} .. ${formatDuration(DELAY_MAX_US)}`}
        placeholder="other"
        min={DELAY_MIN_US / 1000}
        max={DELAY_MAX_US / 1000}
        step="any"
        disabled={disabled}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setBad(false);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          commit();
        }}
      />
      <span aria-hidden="true">ms</span>
      <button type="button" role="menuitem" disabled={disabled} aria-label="Delay this frame by the typed amount" onClick={commit}>
        Delay
      </button>
    </div>
  );
}

/** Up and down move through the items (in the number box too: it has no use for them),
 *  left and right too outside the box, Home and End go to the ends, Escape and Tab close;
 *  Enter is the item's own. */
function menuKeys(e: KeyboardEvent, menu: HTMLElement | null, close: () => void): void {
  e.stopPropagation(); // the packet list and the playback keys stay out of it
  if (e.key === 'Escape' || e.key === 'Tab') {
    e.preventDefault();
    close();
    return;
  }
  const items = [...(menu?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  const n = items.length;
  const at = items.indexOf(document.activeElement as HTMLElement);
  const inBox = document.activeElement instanceof HTMLInputElement;
  const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, ...(inBox ? {} : { ArrowRight: 1, ArrowLeft: -1 }) };
  let next: number | undefined;
  if (e.key in step) next = at < 0 ? 0 : (at + step[e.key]! + n) % n;
  else if (e.key === 'Home' && !inBox) next = 0;
  else if (e.key === 'End' && !inBox) next = n - 1;
  if (next === undefined || n === 0) return;
  e.preventDefault();
  items[next]!.focus();
}
