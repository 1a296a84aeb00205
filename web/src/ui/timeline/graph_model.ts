// What the graphs pane shows for a run and a chosen stream: the time-sequence series from
// that link's packet list and the sender's state series from its trace events.
import type { RunModel } from '../../core/run/run_model.ts';
import { rootFrame } from './frame_info.ts';
import { seqSeries, type SeqSeries } from './seq_series.ts';
import { hostOfAddr, stateSeries, type StateSeries } from './state_series.ts';
import { streamLabel, tcpStreams, type StreamChoice, type StreamInfo } from './tcp_streams.ts';

export interface GraphModel {
  choice: StreamChoice;
  info: StreamInfo;
  title: string;
  seq: SeqSeries;
  /** null when the sender is not a host of the run (a real device) */
  state: StateSeries | null;
  senderName: string;
}

const streamCache = new WeakMap<RunModel, Map<number, StreamInfo[]>>();

export function streamsOf(run: RunModel, link: number): StreamInfo[] {
  let m = streamCache.get(run);
  if (!m) streamCache.set(run, (m = new Map()));
  let s = m.get(link);
  if (!s) m.set(link, (s = tcpStreams(run.link(link).analysis.rows)));
  return s;
}

export function graphModel(run: RunModel, choice: StreamChoice): GraphModel | null {
  const info = streamsOf(run, choice.link).find((s) => s.stream === choice.stream);
  if (!info) return null;
  const view = run.link(choice.link);
  const { world, trace } = run.result;
  const byId = (id: number) => trace.frame(id);
  const from = choice.from === 'a' ? info.a : info.b;
  const to = choice.from === 'a' ? info.b : info.a;
  const seq = seqSeries(
    {
      rows: view.analysis.rows,
      times: view.frames.map((f) => f.tSent),
      ids: view.frames.map((f) => f.id),
      stackRetx: (k) => rootFrame(view.frames[k]!, byId).retx !== 255,
    },
    choice.stream,
    from,
  );
  const host = hostOfAddr(world.hosts, from.addr);
  return {
    choice,
    info,
    title: `${view.name} · ${streamLabel(info, choice.from)}`,
    seq,
    state: host >= 0 ? stateSeries(trace.events, world.trace_kinds, host, from.port, to.port) : null,
    senderName: host >= 0 ? world.hosts[host]!.name : from.addr,
  };
}
