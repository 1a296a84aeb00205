// What `stackscope run` says about a run, counted as its records stream past: frames per
// link and direction, the frames each link lost and why, the drops and retransmissions
// the stacks reported, the applications' lines and reports. It keeps counts, not frames,
// so a run of a million frames takes no more memory than one of ten.
import { EVENT_OFF, FATE_OFF, FRAME_OFF, RecordType, forEachRecord, readApp, readEvent } from '../web/src/core/engine/trace_reader.ts';
import { AppRecordKind, Fate, traceField, type TraceAppRecord, type WorldDescription } from '../web/src/core/engine/trace_types.ts';

/** How often one reason was counted, and the first frame (or event) it was counted for. */
interface Count {
  n: number;
  first: number;
}

export class RunTally {
  /** By link index: frames sent, and those sent a to b. */
  readonly frames: number[];
  readonly aToB: number[];
  /** By link index: drop reason (enum drop_reason) of the frames lost on it. */
  readonly lost: Map<number, Count>[];
  /** "host index,drop reason" and "host index,retransmission cause", in the order first seen. */
  readonly hostDrops = new Map<string, number>();
  readonly retransmissions = new Map<string, number>();
  /** Every app record but the received bytes of a tcp_client (kind 2), which may be many. */
  readonly apps: TraceAppRecord[] = [];
  private readonly dropKind: number;
  private readonly retxKind: number;
  private readonly decoder = new TextDecoder();

  constructor(world: WorldDescription) {
    this.frames = world.links.map(() => 0);
    this.aToB = world.links.map(() => 0);
    this.lost = world.links.map(() => new Map<number, Count>());
    this.dropKind = world.trace_kinds.indexOf('drop');
    this.retxKind = world.trace_kinds.indexOf('tcp.retransmit');
  }

  /** Counts one batch of records (what the engine handed out after a slice). */
  add(batch: Uint8Array): void {
    forEachRecord(batch, (type, v, o) => {
      if (type === RecordType.Frame) {
        const link = v.getUint16(o + FRAME_OFF.link, true);
        this.frames[link]!++;
        if (v.getUint8(o + FRAME_OFF.dir) === 0) this.aToB[link]!++;
      } else if (type === RecordType.Fate) {
        const fate = v.getUint8(o + FATE_OFF.fate);
        if (fate !== Fate.Dropped && fate !== Fate.Unfinished) return;
        const lost = this.lost[v.getUint16(o + FATE_OFF.link, true)]!;
        const reason = v.getUint16(o + FATE_OFF.reason, true);
        const id = v.getUint32(o + FATE_OFF.id, true);
        const c = lost.get(reason);
        if (c) {
          c.n++;
          c.first = Math.min(c.first, id);
        } else lost.set(reason, { n: 1, first: id });
      } else if (type === RecordType.Event) this.addEvent(v, o);
      else if (type === RecordType.App) {
        const rec = readApp(v, batch, o, this.decoder);
        if (rec.kind !== AppRecordKind.Data) this.apps.push(rec);
      }
    });
  }

  /** The reasons frames were lost on `link`, in the order the first frame lost for each was
   *  sent (fates come in the order they are known, which may differ). */
  lostOn(link: number): [reason: number, n: number][] {
    return [...this.lost[link]!.entries()].sort((x, y) => x[1].first - y[1].first).map(([reason, c]) => [reason, c.n]);
  }

  private addEvent(v: DataView, o: number): void {
    const kind = v.getUint16(o + EVENT_OFF.kind, true);
    if (kind !== this.dropKind && kind !== this.retxKind) return;
    const e = readEvent(v, o);
    if (kind === this.dropKind) bump(this.hostDrops, `${e.host},${traceField(e, 'drop', 'reason')}`);
    else bump(this.retransmissions, `${e.host},${traceField(e, 'tcp.retransmit', 'cause')}`);
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
