// The scenario's description under its title: one line, cut with an ellipsis, so the packet
// list keeps its rows on a projector; the whole text on hover, or unfolded with "more".
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSize } from '../common/use_size.ts';
import { useApp } from '../common/store.ts';

export function ScenarioDescription({ text }: { text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const { width } = useSize(ref);
  const presenter = useApp((s) => s.presenter);
  const [open, setOpen] = useState(false);
  const [cut, setCut] = useState(false);
  // Whether the line is cut depends on the text, the width and the type size.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && !open) setCut(el.scrollWidth > el.clientWidth + 1);
  }, [text, width, presenter, open]);
  // Another scenario starts folded.
  useEffect(() => setOpen(false), [text]);

  return (
    <div className={`scenario-description${open ? ' open' : ''}`}>
      <p ref={ref} title={cut && !open ? text : undefined}>
        {text}
      </p>
      {(cut || open) && (
        <button
          type="button"
          aria-expanded={open}
          aria-label={open ? 'Show less of the description' : 'Show all of the description'}
          onClick={() => setOpen(!open)}
        >
          {open ? 'less' : 'more'}
        </button>
      )}
    </div>
  );
}
