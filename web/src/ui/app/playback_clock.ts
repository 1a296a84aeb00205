// While playing, the cursor advances with the wall clock times the speed, one animation
// frame at a time, and stops at the end of the run.
import { useEffect } from 'react';
import { getState, setState, useApp } from '../common/store.ts';

export function usePlaybackClock(): void {
  const playing = useApp((s) => s.playing);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let raf = 0;
    const tick = (now: number) => {
      const s = getState();
      const end = s.run?.endUs ?? 0;
      const next = s.cursorUs + (now - last) * 1000 * s.speed;
      last = now;
      if (next >= end) {
        setState({ cursorUs: end, playing: false });
        return;
      }
      setState({ cursorUs: next });
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing]);
}
