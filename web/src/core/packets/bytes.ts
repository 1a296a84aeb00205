// Big-endian readers and the Internet checksum (RFC 1071), shared by every dissector.
// Callers check lengths before reading (a dissector validates its header length once at
// the top, as the C stack does); these readers never throw and return 0 past the end so
// a mistake shows as a wrong value, never as an exception in the packet list.

export function u8(b: Uint8Array, off: number): number {
  return off < b.length ? b[off]! : 0;
}

export function u16(b: Uint8Array, off: number): number {
  if (off + 2 > b.length) return 0;
  return (b[off]! << 8) | b[off + 1]!;
}

export function u32(b: Uint8Array, off: number): number {
  if (off + 4 > b.length) return 0;
  return ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) >>> 0;
}

/** Ones'-complement sum of 16-bit words (RFC 1071 section 4.1), not yet folded or inverted.
 *  An odd trailing byte is padded with a zero byte on the right. */
export function onesSum(b: Uint8Array, off: number, len: number, initial = 0): number {
  let sum = initial;
  const end = off + len;
  let i = off;
  for (; i + 1 < end; i += 2) sum += (b[i]! << 8) | b[i + 1]!;
  if (i < end) sum += b[i]! << 8;
  return sum;
}

/** Folds a ones'-complement sum to 16 bits and inverts it: the checksum field value. */
export function foldChecksum(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return ~sum & 0xffff;
}

/** Internet checksum of b[off, off+len) (RFC 1071). Over data that includes a correct
 *  checksum field the result is 0. */
export function inetChecksum(b: Uint8Array, off: number, len: number, initial = 0): number {
  return foldChecksum(onesSum(b, off, len, initial));
}

/** The pseudo-header sum of TCP and UDP (RFC 9293 3.1, RFC 768): source, destination,
 *  zero, protocol, and the transport length. */
export function pseudoHeaderSum(ip: Uint8Array, srcOff: number, dstOff: number, proto: number, len: number): number {
  return onesSum(ip, srcOff, 4) + onesSum(ip, dstOff, 4) + proto + len;
}

const addrCache = new Map<number, string>();

/** Dotted quad of the 4 bytes at off. A capture has few addresses: they are cached, so
 *  the packet list does not build two strings per frame. */
export function ipv4String(b: Uint8Array, off: number): string {
  const n = u32(b, off);
  let s = addrCache.get(n);
  if (s === undefined) {
    s = `${u8(b, off)}.${u8(b, off + 1)}.${u8(b, off + 2)}.${u8(b, off + 3)}`;
    if (addrCache.size > 4096) addrCache.clear();
    addrCache.set(n, s);
  }
  return s;
}

/** "0x%04x" as Wireshark prints 16-bit hex fields. */
export function hex16(v: number): string {
  return '0x' + v.toString(16).padStart(4, '0');
}

export function hex8(v: number): string {
  return '0x' + v.toString(16).padStart(2, '0');
}

export function hex32(v: number): string {
  return '0x' + (v >>> 0).toString(16).padStart(8, '0');
}

/** The value a checksum field at `fieldOff` should hold: the checksum of b[off, off+len)
 *  computed with that field as zero (used only to word "Bad checksum [should be ...]"). */
export function checksumShouldBe(b: Uint8Array, off: number, len: number, fieldOff: number, initial = 0): number {
  const field = ((b[fieldOff] ?? 0) << 8) | (b[fieldOff + 1] ?? 0);
  // Subtracting the field from the sum is adding its ones' complement (RFC 1624).
  return foldChecksum(onesSum(b, off, len, initial) + (~field & 0xffff));
}
