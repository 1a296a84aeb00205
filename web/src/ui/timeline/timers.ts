// The stack's timers as objects with a life: an RTO timer runs from the event that armed it
// (tcp.rto.arm / tcp.rto.restart) to the one that ended it (expire, stop, or being armed
// again); a delayed-ACK timer from tcp.delack.arm to fire or cancel. The ladder draws each
// as a bar on its host's lifeline, so the reader sees the RTO run out before the
// retransmission it causes.
import { traceField, type TraceEvent } from '../../core/engine/trace_types.ts';

export type TimerKind = 'rto' | 'delack';
export type TimerEnd = 'expire' | 'stop' | 'fire' | 'cancel' | 'rearm' | 'closed' | 'open';

export interface TimerBar {
  kind: TimerKind;
  host: number;
  conn: number;
  lport: number;
  rport: number;
  /** which of the host's connections (0, 1, ...): the bar's offset beside the lifeline */
  slot: number;
  t0: number;
  t1: number;
  /** the RTO the timer was armed with (backoff included), or the delayed-ACK delay */
  valueUs: number;
  end: TimerEnd;
  /** seq of the event that armed it */
  armSeq: number;
}

const ENDS: Record<string, { kind: TimerKind; end: TimerEnd } | undefined> = {
  'tcp.rto.stop': { kind: 'rto', end: 'stop' },
  'tcp.rto.expire': { kind: 'rto', end: 'expire' },
  'tcp.delack.fire': { kind: 'delack', end: 'fire' },
  'tcp.delack.cancel': { kind: 'delack', end: 'cancel' },
};
const ARMS: Record<string, TimerKind | undefined> = {
  'tcp.rto.arm': 'rto',
  'tcp.rto.restart': 'rto',
  'tcp.delack.arm': 'delack',
};

/** How long an arm event set its timer for, in µs. */
function armedFor(e: TraceEvent, name: string): number {
  return name === 'tcp.delack.arm' ? traceField(e, name, 'delay_us') : traceField(e, name as 'tcp.rto.arm' | 'tcp.rto.restart', 'rto_us');
}

/** Pairs the arm events with what ended them, per host and connection. `kinds` is
 *  world.trace_kinds, `states` world.tcp_states; `endUs` closes timers still running. */
export function timerBars(events: readonly TraceEvent[], kinds: readonly string[], states: readonly string[], endUs: number): TimerBar[] {
  const out: TimerBar[] = [];
  const open = new Map<string, TimerBar>();
  const slots = new Map<number, Map<string, number>>();
  const closedState = states.indexOf('CLOSED');

  const slotOf = (host: number, conn: string): number => {
    let m = slots.get(host);
    if (!m) slots.set(host, (m = new Map()));
    let s = m.get(conn);
    if (s === undefined) m.set(conn, (s = m.size));
    return s;
  };
  const close = (key: string, t: number, end: TimerEnd) => {
    const bar = open.get(key);
    if (!bar) return;
    bar.t1 = Math.max(bar.t0, t);
    bar.end = end;
    open.delete(key);
  };

  for (const e of events) {
    const name = kinds[e.kind] ?? '';
    const conn = `${e.conn}:${e.lport}:${e.rport}`;
    const arm = ARMS[name];
    if (arm) {
      const key = `${e.host}:${conn}:${arm}`;
      close(key, e.time, 'rearm');
      const bar: TimerBar = {
        kind: arm,
        host: e.host,
        conn: e.conn,
        lport: e.lport,
        rport: e.rport,
        slot: slotOf(e.host, conn),
        t0: e.time,
        t1: e.time,
        valueUs: armedFor(e, name),
        end: 'open',
        armSeq: e.seq,
      };
      open.set(key, bar);
      out.push(bar);
      continue;
    }
    const ending = ENDS[name];
    if (ending) {
      close(`${e.host}:${conn}:${ending.kind}`, e.time, ending.end);
      continue;
    }
    // A connection that went to CLOSED (reset, aborted) takes its timers with it.
    if (name === 'tcp.state' && traceField(e, 'tcp.state', 'new_state') === closedState) {
      close(`${e.host}:${conn}:rto`, e.time, 'closed');
      close(`${e.host}:${conn}:delack`, e.time, 'closed');
    }
  }
  // Still running at the end of the run: drawn up to when it would expire, or the end.
  for (const bar of open.values()) bar.t1 = Math.max(bar.t0, Math.min(endUs, bar.t0 + bar.valueUs));
  return out;
}
