// udp.stream: UDP conversations numbered in order of first appearance, one per pair of
// endpoints (packet-udp.c keeps them as conversations, like TCP but without reuse).
import { EndpointPairMap } from './tcp_conversation.ts';

export class UdpStreams {
  private readonly byPair = new EndpointPairMap<number>();
  private count = 0;

  stream(src: number, dst: number, sport: number, dport: number): number {
    let s = this.byPair.get(src, dst, sport, dport);
    if (s === undefined) {
      s = this.count++;
      this.byPair.set(src, dst, sport, dport, s);
    }
    return s;
  }
}
