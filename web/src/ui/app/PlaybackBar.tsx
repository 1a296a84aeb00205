// Play, pause, step from event to event, speed and the scrubber. Space plays or pauses,
// left and right arrows step (unless a text box, list or menu has the keys).
import { useEffect } from 'react';
import { usePlaybackClock } from './playback_clock.ts';
import { getState, setCursor, setState, step, useApp } from '../common/store.ts';

export const SPEEDS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];

export function formatTime(us: number): string {
  return `${(us / 1e6).toFixed(6)} s`;
}

function keyIsForPlayback(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t || e.ctrlKey || e.metaKey || e.altKey) return false;
  if (t.closest('input, select, textarea, [role="grid"], [role="tree"], [role="menu"], [contenteditable="true"]')) return false;
  return e.key === ' ' || e.key === 'ArrowLeft' || e.key === 'ArrowRight';
}

export function PlaybackBar() {
  const run = useApp((s) => s.run);
  const cursor = useApp((s) => s.cursorUs);
  const playing = useApp((s) => s.playing);
  const speed = useApp((s) => s.speed);
  const hideFuture = useApp((s) => s.hideFuture);
  usePlaybackClock();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!keyIsForPlayback(e) || !getState().run) return;
      e.preventDefault();
      if (e.key === ' ') setState({ playing: !getState().playing });
      else step(e.key === 'ArrowRight' ? 1 : -1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const end = run?.endUs ?? 0;
  return (
    <div className="playback-bar" aria-label="Playback">
      <button type="button" disabled={!run} onClick={() => step(-1)} aria-label="Previous event" title="Previous event (←)">
        ◀ Step
      </button>
      <button
        type="button"
        disabled={!run}
        onClick={() => setState({ playing: !playing, ...(cursor >= end ? { cursorUs: 0 } : {}) })}
        aria-label={playing ? 'Pause' : 'Play'}
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" disabled={!run} onClick={() => step(1)} aria-label="Next event" title="Next event (→)">
        Step ▶
      </button>
      <label>
        Speed{' '}
        <select value={speed} onChange={(e) => setState({ speed: Number(e.target.value) })}>
          {SPEEDS.map((v) => (
            <option key={v} value={v}>
              {v}×
            </option>
          ))}
        </select>
      </label>
      <input
        className="scrubber"
        type="range"
        aria-label="Time"
        min={0}
        max={end}
        step={1}
        value={cursor}
        disabled={!run}
        onChange={(e) => setCursor(Number(e.target.value))}
      />
      <output className="clock" aria-label="Cursor time">
        {formatTime(cursor)} / {formatTime(end)}
      </output>
      <label title="Draw nothing after the cursor in the list, the ladder and the graphs, so the class predicts before it sees">
        <input type="checkbox" checked={hideFuture} onChange={(e) => setState({ hideFuture: e.target.checked })} /> Hide the future
      </label>
    </div>
  );
}
