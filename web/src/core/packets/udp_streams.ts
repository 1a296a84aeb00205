// udp.stream: UDP conversations numbered in order of first appearance, one per pair of
// endpoints (packet-udp.c keeps them as conversations, like TCP but without reuse).
import { EndpointPairMap } from './tcp_conversation.ts';

export class UdpStreams {
  private readonly byPair = new EndpointPairMap<number>();
  private count = 0;
  /** per stream: time of its first and of its latest datagram, µs */
  private readonly first: number[] = [];
  private readonly prev: number[] = [];
  /** set by stream(): the datagram's time since the stream's first and previous one, µs */
  sinceFirst = 0;
  sincePrev = 0;

  /** The stream of a datagram seen at `t` (µs). `timed`: it counts for the stream's
   *  timestamps (Wireshark times only datagrams whose length field claims a payload,
   *  present or not, and not quoted ones; the
   *  stream's clock starts with its first datagram of any kind). */
  stream(src: number, dst: number, sport: number, dport: number, t: number, timed: boolean): number {
    let s = this.byPair.get(src, dst, sport, dport);
    if (s === undefined) {
      s = this.count++;
      this.byPair.set(src, dst, sport, dport, s);
      this.first[s] = t;
      this.prev[s] = t;
    }
    if (timed) {
      this.sinceFirst = t - this.first[s]!;
      this.sincePrev = t - this.prev[s]!;
      this.prev[s] = t;
    }
    return s;
  }
}
