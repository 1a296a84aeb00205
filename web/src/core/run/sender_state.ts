// The sending stack's state at an instant, from its own trace events: the last tcp.cwnd,
// tcp.ssthresh, tcp.rto.value (or tcp.rto.initial, before any RTT sample) and tcp.state of
// that connection at or before the instant.
// This is what no capture can show and the ladder shows on every arrow.
import { traceField, type TraceEvent } from '../engine/trace_types.ts';
import { upperBound } from '../util/interval_index.ts';

export interface SenderState {
  state?: string;
  cwnd?: number;
  /** 0xFFFFFFFF: "infinite" (no loss seen yet) */
  ssthresh?: number;
  /** the RTO the estimator gives (no backoff) */
  rtoUs?: number;
  srttUs?: number;
  rttvarUs?: number;
}

type Field = 'state' | 'cwnd' | 'ssthresh' | 'rto' | 'srtt' | 'rttvar';

class Series {
  readonly t: number[] = [];
  readonly v: number[] = [];
  push(t: number, v: number): void {
    this.t.push(t);
    this.v.push(v);
  }
  at(time: number): number | undefined {
    const i = upperBound(this.t, time) - 1;
    return i >= 0 ? this.v[i] : undefined;
  }
}

export function connectionKey(host: number, lport: number, rport: number): string {
  return `${host}:${lport}:${rport}`;
}

export class SenderStateIndex {
  private readonly byConn = new Map<string, Map<Field, Series>>();

  constructor(
    events: readonly TraceEvent[],
    kinds: readonly string[],
    private readonly states: readonly string[],
  ) {
    const k = (name: string) => kinds.indexOf(name);
    const cwnd = k('tcp.cwnd');
    const ssthresh = k('tcp.ssthresh');
    const rto = k('tcp.rto.value');
    const initial = k('tcp.rto.initial');
    const state = k('tcp.state');
    for (const e of events) {
      if (e.kind === cwnd) this.add(e, 'cwnd', traceField(e, 'tcp.cwnd', 'cwnd'));
      else if (e.kind === ssthresh) this.add(e, 'ssthresh', traceField(e, 'tcp.ssthresh', 'ssthresh'));
      else if (e.kind === state) this.add(e, 'state', traceField(e, 'tcp.state', 'new_state'));
      else if (e.kind === initial) this.add(e, 'rto', traceField(e, 'tcp.rto.initial', 'rto_us'));
      else if (e.kind === rto) {
        this.add(e, 'rto', traceField(e, 'tcp.rto.value', 'rto_us'));
        this.add(e, 'srtt', traceField(e, 'tcp.rto.value', 'srtt_us'));
        this.add(e, 'rttvar', traceField(e, 'tcp.rto.value', 'rttvar_us'));
      }
    }
  }

  private add(e: TraceEvent, field: Field, v: number): void {
    const key = connectionKey(e.host, e.lport, e.rport);
    let m = this.byConn.get(key);
    if (!m) this.byConn.set(key, (m = new Map()));
    let s = m.get(field);
    if (!s) m.set(field, (s = new Series()));
    s.push(e.time, v);
  }

  /** The state of host's connection lport -> rport at time t (events at t included: the
   *  stack updates its state before it sends in the same instant). */
  at(host: number, lport: number, rport: number, t: number): SenderState | null {
    const m = this.byConn.get(connectionKey(host, lport, rport));
    if (!m) return null;
    const get = (f: Field) => m.get(f)?.at(t);
    const out: SenderState = {};
    const st = get('state');
    if (st !== undefined) out.state = this.states[st] ?? `state ${st}`;
    const put = (k: keyof Omit<SenderState, 'state'>, f: Field) => {
      const v = get(f);
      if (v !== undefined) out[k] = v;
    };
    put('cwnd', 'cwnd');
    put('ssthresh', 'ssthresh');
    put('rtoUs', 'rto');
    put('srttUs', 'srtt');
    put('rttvarUs', 'rttvar');
    return out;
  }
}
