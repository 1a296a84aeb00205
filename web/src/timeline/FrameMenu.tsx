// Right click on an arrow: "what if this frame were dropped, or late?" Adds a targeted fault
// rule for exactly that frame and runs the scenario again (the store does the re-run).
import { useEffect, useRef } from 'react';
import { addRule, getState } from '../app/store.ts';
import { ruleForFrame } from '../app/what_if.ts';

export interface FrameMenuProps {
  frameId: number;
  x: number;
  y: number;
  onClose: () => void;
}

export function FrameMenu({ frameId, x, y, onClose }: FrameMenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const away = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('keydown', key);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      window.removeEventListener('keydown', key);
    };
  }, [onClose]);

  const act = (action: 'drop' | 'delay') => {
    const run = getState().run;
    const frame = run?.result.trace.frame(frameId);
    if (run && frame) {
      const link = run.result.world.links[frame.link];
      if (link) addRule(ruleForFrame(run.result.trace.frames, frame, link.name, action));
    }
    onClose();
  };

  return (
    <div ref={ref} className="tl-menu" role="menu" aria-label={`Frame ${frameId}`} style={{ left: x, top: y }}>
      <button type="button" role="menuitem" onClick={() => act('drop')}>
        Drop this frame
      </button>
      <button type="button" role="menuitem" onClick={() => act('delay')}>
        Delay this frame by 200 ms
      </button>
    </div>
  );
}
