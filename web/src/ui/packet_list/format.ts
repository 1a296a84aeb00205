// How the packet views write times, durations and sizes.

/** "0.123456 s" as the packet list's Time column and the details show times. */
export function secondsText(us: number): string {
  return `${(us / 1e6).toFixed(6)} s`;
}

/** "1.234 ms" for short spans. */
export function durationText(us: number): string {
  if (us === 0) return '0 µs';
  if (us >= 1e6) return `${(us / 1e6).toFixed(3)} s`;
  if (us >= 1000) return `${(us / 1000).toFixed(3)} ms`;
  return `${us.toFixed(us < 10 ? 2 : 1)} µs`;
}

/** "a 44" or "an 84": the article English wants before a number read aloud. */
export function aNum(n: number | string): string {
  const s = String(n);
  const an = s.startsWith('8') || /^1[18]$/.test(s) || /^1[18]\d{3}$/.test(s);
  return `${an ? 'an' : 'a'} ${s}`;
}
