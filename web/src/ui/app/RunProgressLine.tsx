// The run going on, in words and as a bar: "Running: 12 340 frames, 4.2 s of 10 s". The bar
// is the virtual time reached of the scenario's duration (a run whose apps are done ends
// sooner); the words say what the bar cannot, and name it for a screen reader. A row of its
// own under the Run button: the first row has no room for it in presenter type. A short run
// shows neither it nor Cancel, so that the page does not jump at every change of a parameter.
import { useEffect, useState } from 'react';
import { progressText } from '../../core/run/progress_text.ts';
import { LONG_RUN_MS } from '../common/run_so_far.ts';
import { useApp } from '../common/store.ts';

/** True once the run going on (`running`) has lasted LONG_RUN_MS. */
export function useLongRun(running: boolean): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setLong(true), LONG_RUN_MS);
    return () => {
      clearTimeout(timer);
      setLong(false);
    };
  }, [running]);
  return running && long;
}

export function RunProgressLine() {
  const progress = useApp((s) => s.progress);
  const text = progressText(progress);
  const fraction = progress && progress.durationUs > 0 ? Math.min(1, progress.nowUs / progress.durationUs) : 0;
  return (
    <div className="bar-row run-progress" role="status" data-testid="run-progress">
      <progress max={1} value={fraction} aria-label={text} />
      <span>{text}</span>
    </div>
  );
}
