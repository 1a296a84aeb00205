// Host addresses, "a.b.c.d/len". The schema's pattern accepts exactly the strings
// parseAddr() accepts; this file says *why* a string is refused, and which well-formed
// addresses a host may not use (RFC 1122 3.2.1.3).

export interface HostAddr {
  /** host byte order, unsigned */
  addr: number;
  prefix: number;
}

export type AddrResult = { ok: true; value: HostAddr } | { ok: false; reason: string };

/** Parses "a.b.c.d/len"; a refusal says what is wrong in a few words. */
export function parseAddr(text: string): AddrResult {
  const slash = text.indexOf('/');
  if (slash < 0) return fail('the "/len" prefix length is missing');
  const ip = parseIp(text.slice(0, slash));
  if (!ip.ok) return ip;
  const len = text.slice(slash + 1);
  if (!/^[0-9]+$/.test(len)) return fail(`prefix length "${len}" is not a number 1 .. 32`);
  const prefix = Number(len);
  if (prefix < 1 || prefix > 32 || (len.length > 1 && len.startsWith('0'))) return fail(`prefix length ${len} is not in 1 .. 32`);
  return { ok: true, value: { addr: ip.value, prefix } };
}

/** Parses "a.b.c.d" (an app's `to` given as an address) by the rules of parseAddr(). */
export function parseIp(text: string): { ok: true; value: number } | { ok: false; reason: string } {
  const quad = text.split('.');
  if (quad.length !== 4) return fail(`"${text}" is not four numbers separated by dots`);
  let addr = 0;
  for (const part of quad) {
    if (!/^[0-9]+$/.test(part)) return fail(`"${part}" is not a number 0 .. 255`);
    // A leading zero reads as octal to inet_aton(3); refuse rather than guess.
    if (part.length > 1 && part.startsWith('0')) return fail(`"${part}" has a leading zero`);
    const n = Number(part);
    if (n > 255) return fail(`${part} is not in 0 .. 255`);
    addr = addr * 256 + n;
  }
  return { ok: true, value: addr };
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

export function formatIp(addr: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(addr / 2 ** s) % 256).join('.');
}

/**
 * Why a well-formed address cannot be a host's, or null. RFC 1122 3.2.1.3: not "this
 * network" (0/8), not loopback (127/8), not class D/E (224/3 and up); and not the subnet's
 * own address or its broadcast (host part all zeros or all ones) where the subnet has
 * room for them (prefix up to 30; /31 (RFC 3021) and /32 have none).
 */
export function hostAddrProblem({ addr, prefix }: HostAddr): string | null {
  const first = Math.floor(addr / 2 ** 24);
  if (first === 0) return `${formatIp(addr)} is in 0.0.0.0/8 ("this network"), which no host may use`;
  if (first === 127) return `${formatIp(addr)} is a loopback address (127.0.0.0/8)`;
  if (first >= 224) return `${formatIp(addr)} is a multicast or reserved address (224.0.0.0 and up)`;
  if (prefix <= 30) {
    const size = 2 ** (32 - prefix);
    const hostPart = addr % size;
    if (hostPart === 0) return `${formatIp(addr)} is the address of the subnet ${formatIp(addr)}/${prefix} itself, not of a host`;
    if (hostPart === size - 1) return `${formatIp(addr)} is the broadcast address of its /${prefix} subnet`;
  }
  return null;
}
