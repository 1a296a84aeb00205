// How the replay tables (the page's and `stackscope replay`'s) write a figure: at most four
// significant digits, because the seeds give three or four and a sixth digit of ours would
// claim a precision neither side has; and a deviation as a signed percentage.

/** A figure with at most four significant digits ("29.86", "0.000245", "32900"); "—" for
 *  no value. Plain decimals from 1e-6 to below 1e21 (toPrecision would write 1.235e+4). */
export function sig4(v: number | null): string {
  return v === null ? '—' : String(+v.toPrecision(4));
}

/** A deviation (a fraction) as a signed percentage: "+2.7 %", "−71.6 %", "+153 %",
 *  "0.0 %"; "" for none. One decimal below 100 %, none from there (99.96 would round to
 *  "100.0"), four significant digits from 10000 % on. */
export function percent(d: number | null): string {
  if (d === null) return '';
  const p = d * 100;
  const a = Math.abs(p);
  const text = a >= 9999.5 ? sig4(a) : a >= 99.95 ? a.toFixed(0) : a.toFixed(1);
  return `${p > 0 && text !== '0.0' ? '+' : p < 0 && text !== '0.0' ? '−' : ''}${text} %`;
}
