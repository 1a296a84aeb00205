// A typed array made longer, its contents kept: the columns of a trace and of a packet
// list grow by doubling as frames come.

type Growable = Int32Array | Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** A copy of `a` with room for `size` elements (the new ones 0). */
export function grown<T extends Growable>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** `a` if it holds `n` elements already, else grown to n or to twice its length. */
export function withRoom<T extends Growable>(a: T, n: number): T {
  return a.length >= n ? a : grown(a, Math.max(n, 2 * a.length));
}
