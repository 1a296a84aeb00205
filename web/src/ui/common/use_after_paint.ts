// The value as it was one paint ago: what a costly view (the ladder, the graphs) draws, so
// that the views that are cheap to show (the packet list) reach the screen first.
import { useEffect, useState } from 'react';
import { afterPaint, handoff } from './handoff.ts';

export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const [h] = useState(() => handoff<T>(afterPaint, (v) => setShown(() => v)));
  // Offered on every change, even back to the value shown: it replaces one still pending.
  useEffect(() => h.offer(value), [h, value]);
  useEffect(() => () => h.cancel(), [h]);
  return shown;
}
