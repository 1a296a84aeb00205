// The "Stack says" column: what really happened to a frame, from the simulator's own
// records rather than inferred from the capture as Wireshark must. For a retransmission,
// the cause chain of docs/trace-format.md: frame -> tcp.retransmit event -> the
// tcp.rto.expire (timeout) or tcp.dupack (fast retransmit) that led to it; for a frame
// that did not arrive, its fate and drop reason; faults a rule applied. Names come from
// the world's description, never from the C enums.
import { nodeName } from './lifelines.ts';
import {
  FAULT_CORRUPTED,
  FAULT_DELAYED,
  FAULT_DUPLICATE,
  NONE,
  traceField,
  type TraceEvent,
  type TraceFrame,
  type WorldDescription,
} from '../engine/trace_types.ts';

const FATE_DELIVERED = 0;
const FATE_DROPPED = 1;
const FATE_UNFINISHED = 2;
const FATE_IN_FLIGHT = 3;
const NO_RETX = 255;

export interface StackSaysContext {
  world: Pick<WorldDescription, 'trace_kinds' | 'drop_reason_texts' | 'retx_causes' | 'retx_cause_names' | 'hosts' | 'bridges'>;
  /** the run's stack events, in seq order */
  events: readonly TraceEvent[];
  frame(id: number): TraceFrame | undefined;
  /** how this capture point names frame `id`: its No. here, or "nfc 4" elsewhere */
  frameLabel(id: number): string;
  /** with "Hide the future": say nothing learnt after this instant (µs) */
  horizonUs?: number;
}

/** The event with this seq (events are in seq order, usually events[seq] itself). */
export function eventBySeq(events: readonly TraceEvent[], seq: number): TraceEvent | undefined {
  if (seq === NONE) return undefined;
  const guess = events[seq];
  if (guess && guess.seq === seq) return guess;
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return events[lo]?.seq === seq ? events[lo] : undefined;
}

function seconds(us: number): string {
  return `${(us / 1e6).toFixed(3)} s`;
}

/** The RTO the connection's timer used before event `before`: its last tcp.rto.value, or
 *  its tcp.rto.initial when it has no RTT sample yet. */
function lastRtoValue(ctx: StackSaysContext, before: TraceEvent): number | undefined {
  const names = ctx.world.trace_kinds;
  const kinds = [names.indexOf('tcp.rto.value'), names.indexOf('tcp.rto.initial')];
  const ev = ctx.events;
  let i = ev[before.seq] === before ? before.seq : ev.indexOf(before);
  // A connection reports its RTO whenever it changes, so the last one is never far back;
  // the bound keeps a pathological trace from costing a scan of the whole run per row.
  for (let n = 0; --i >= 0 && n < 100_000; n++) {
    const e = ev[i]!;
    if (kinds.includes(e.kind) && e.host === before.host && e.conn === before.conn)
      return traceField(e, names[e.kind] as 'tcp.rto.value' | 'tcp.rto.initial', 'rto_us');
  }
  return undefined;
}

/** Did the connection find the timeout behind `retx` spurious (tcp.rto.spurious: the first
 *  ACK after it echoed an older timestamp, Eifel) before its next timeout? */
function foundSpurious(ctx: StackSaysContext, retx: TraceEvent): boolean {
  const kinds = ctx.world.trace_kinds;
  const spurious = kinds.indexOf('tcp.rto.spurious');
  const expire = kinds.indexOf('tcp.rto.expire');
  if (spurious < 0) return false;
  const ev = ctx.events;
  let i = ev[retx.seq] === retx ? retx.seq : ev.indexOf(retx);
  // The verdict comes with the next ACK of new data, so it is never far on; the bound
  // keeps a pathological trace from costing a scan of the whole run per row.
  for (let n = 0; ++i < ev.length && n < 100_000; n++) {
    const e = ev[i]!;
    if (ctx.horizonUs !== undefined && e.time > ctx.horizonUs) return false;
    if (e.host !== retx.host || e.conn !== retx.conn) continue;
    if (e.kind === spurious) return true;
    if (e.kind === expire) return false;
  }
  return false;
}

/** ", RTO=…" for a timer's retransmission: the value of the expiry that caused it, else
 *  the connection's last RTO; and whether Eifel found the timeout spurious. */
function timerDetail(ctx: StackSaysContext, retx: TraceEvent | undefined, cause: TraceEvent | undefined): string {
  const kinds = ctx.world.trace_kinds;
  if (cause && kinds[cause.kind] === 'tcp.rto.expire') {
    const spurious = retx && foundSpurious(ctx, retx) ? ", spurious: the next ACK echoed the original's timestamp (Eifel), undone" : '';
    return `, RTO=${seconds(traceField(cause, 'tcp.rto.expire', 'rto_us'))}${spurious}`;
  }
  if (!retx) return '';
  const rto = lastRtoValue(ctx, retx);
  return rto === undefined ? '' : `, RTO=${seconds(rto)}`;
}

/** Why the sending stack sent this frame's data again, from its tcp.retransmit event. */
export function retransmitText(f: TraceFrame, ctx: StackSaysContext): string {
  const kinds = ctx.world.trace_kinds;
  const retx = eventBySeq(ctx.events, f.cause);
  const causeIndex = retx && kinds[retx.kind] === 'tcp.retransmit' ? traceField(retx, 'tcp.retransmit', 'cause') : f.retx;
  let text = ctx.world.retx_causes[causeIndex] ?? 'retransmission';
  const cause = retx ? eventBySeq(ctx.events, retx.cause) : undefined;
  switch (ctx.world.retx_cause_names[causeIndex]) {
    case 'rto':
    case 'syn_rto':
    case 'fin_rto':
      text += timerDetail(ctx, retx, cause);
      break;
    case 'fast': {
      // the tcp.dupack event that crossed the threshold counts them; else the event's d
      const dupacks =
        cause && kinds[cause.kind] === 'tcp.dupack'
          ? traceField(cause, 'tcp.dupack', 'dupacks')
          : retx && traceField(retx, 'tcp.retransmit', 'timer_or_dupacks');
      if (dupacks) text += ` after ${dupacks} dup ACK${dupacks === 1 ? '' : 's'}`;
      break;
    }
    case 'partial_ack':
    case 'sack_loss':
    case undefined:
      break;
  }
  if (f.orig !== NONE && f.orig !== f.id) text += ` (re-sends ${ctx.frameLabel(f.orig)})`;
  return text;
}

/** Everything the stack and the simulator know about a frame that the capture alone does
 *  not say, "; "-separated; empty for a plain delivered frame. */
export function stackSays(f: TraceFrame, ctx: StackSaysContext): string {
  const parts: string[] = [];
  if (f.retx !== NO_RETX) {
    parts.push(retransmitText(f, ctx));
  } else if (f.parent !== NONE) {
    // A bridge's copy: the decision was taken by the host that sent the original.
    let root: TraceFrame | undefined = f;
    for (let hops = 0; root && root.parent !== NONE && hops < 32; hops++) root = ctx.frame(root.parent);
    let text = `forwarded by ${nodeName(ctx.world, f.node)}`;
    if (root && root !== f && root.retx !== NO_RETX) text += `: ${retransmitText(root, ctx)}`;
    parts.push(text);
  }
  if (f.faults & FAULT_DUPLICATE) parts.push('duplicate');
  if (f.faults & FAULT_DELAYED) parts.push('delayed');
  // Hiding the future, a frame whose fate comes after the horizon is simply on its way.
  if (ctx.horizonUs !== undefined && f.tEnd > ctx.horizonUs) {
    parts.push('on its way');
    return parts.join('; ');
  }
  switch (f.fate) {
    case FATE_DROPPED:
      parts.push(`dropped: ${ctx.world.drop_reason_texts[f.reason] ?? `reason ${f.reason}`}`);
      break;
    case FATE_UNFINISHED:
      parts.push('unfinished: the run ended before its END');
      break;
    case FATE_IN_FLIGHT:
      parts.push('in flight at the end');
      break;
    case FATE_DELIVERED:
    default:
      break;
  }
  if (f.faults & FAULT_CORRUPTED) parts.push('corrupted on the way');
  return parts.join('; ');
}
