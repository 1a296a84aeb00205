// The window math of the packet list's hand-made virtualization: fixed-height rows, only
// the rows in view (plus some overscan) rendered, a spacer as tall as all the rows so the
// scroll bar is true. Pure so it is tested without a DOM.

export interface RowWindow {
  /** first row index rendered */
  first: number;
  /** one past the last row index rendered */
  end: number;
  /** the top of row `first`, in pixels from the top of the spacer */
  offsetPx: number;
}

/** The rows to render for a viewport `viewPx` high scrolled to `scrollTop`. */
export function rowWindow(scrollTop: number, viewPx: number, rowPx: number, count: number, overscan = 8): RowWindow {
  if (count <= 0 || rowPx <= 0) return { first: 0, end: 0, offsetPx: 0 };
  const top = Math.max(0, scrollTop);
  const firstVisible = Math.min(count - 1, Math.floor(top / rowPx));
  const lastVisible = Math.min(count - 1, Math.floor((top + Math.max(0, viewPx) - 1) / rowPx));
  const first = Math.max(0, firstVisible - overscan);
  const end = Math.min(count, Math.max(firstVisible, lastVisible) + 1 + overscan);
  return { first, end, offsetPx: first * rowPx };
}

/** The scrollTop that brings row `index` into view with the least movement (unchanged if
 *  it is already wholly visible). `align: 'end'` puts it at the bottom when it must move,
 *  which is how the list follows a playing cursor: the newest row at the bottom. */
export function scrollToRow(index: number, scrollTop: number, viewPx: number, rowPx: number, align: 'nearest' | 'end' = 'nearest'): number {
  const top = index * rowPx;
  const bottom = top + rowPx;
  if (top >= scrollTop && bottom <= scrollTop + viewPx) return scrollTop;
  if (align === 'end' || bottom > scrollTop + viewPx) return Math.max(0, bottom - viewPx);
  return top;
}

/** How many whole rows fit in the viewport (Page Up / Page Down step), at least 1. */
export function rowsPerPage(viewPx: number, rowPx: number): number {
  return Math.max(1, Math.floor(viewPx / rowPx));
}

/** The last position p in 0..n-1 whose time timeAt(p) is <= t, or -1 if none. Times are
 *  non-decreasing in p (frames are listed in the order sent). Binary search, so following
 *  the cursor through 100 000 rows costs 17 comparisons per frame drawn. */
export function lastAtOrBefore(n: number, timeAt: (p: number) => number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeAt(mid) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The new position for a navigation key in a list of n rows, or null for other keys. */
export function keyTarget(key: string, current: number, n: number, page: number): number | null {
  if (n === 0) return null;
  const clamp = (p: number): number => Math.max(0, Math.min(n - 1, p));
  switch (key) {
    case 'ArrowDown':
      return current < 0 ? 0 : clamp(current + 1);
    case 'ArrowUp':
      return current < 0 ? 0 : clamp(current - 1);
    case 'PageDown':
      return clamp((current < 0 ? 0 : current) + page);
    case 'PageUp':
      return clamp((current < 0 ? 0 : current) - page);
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}

/** Position of `v` in the ascending array `a` (the filtered rows), or -1. */
export function indexInSorted(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < a.length && a[lo] === v ? lo : -1;
}
