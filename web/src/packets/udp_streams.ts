// udp.stream: UDP conversations numbered in order of first appearance, one per pair of
// endpoints (packet-udp.c keeps them as conversations, like TCP but without reuse).
export class UdpStreams {
  private readonly byKey = new Map<string, number>();
  private count = 0;

  stream(src: number, dst: number, sport: number, dport: number): number {
    const a = src * 65536 + sport;
    const b = dst * 65536 + dport;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let s = this.byKey.get(key);
    if (s === undefined) {
      s = this.count++;
      this.byKey.set(key, s);
    }
    return s;
  }
}
