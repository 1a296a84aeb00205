// A live session: the wasm stack's host talking to a board over a serial line in real time.
// The page's clock drives the engine (performance.now(), from the session's start, less
// the time timers came late): the engine runs up to now whenever bytes arrive and whenever
// its next timer is due, so a frame is stamped with the moment it left or arrived.
// Everything the engine records goes into one growing Trace, the same the views read for a
// simulated run; the capture outlives the line, so an unplugged board loses nothing.
import { Engine } from '../../core/engine/engine.ts';
import type { EngineModule } from '../../core/engine/engine_module.ts';
import type { RunResult } from '../../core/engine/run.ts';
import { Trace } from '../../core/engine/trace_reader.ts';
import { AppRecordKind, type TraceAppRecord, type WorldDescription } from '../../core/engine/trace_types.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { liveScenario } from './live_scenario.ts';
import { openSerialLine, type SerialLine } from './serial_line.ts';

const PORT_LINK = 0;

export type AppListener = (rec: TraceAppRecord) => void;

/** An app of the session that has not reported yet: who hears its records, and its type. */
interface RunningApp {
  listener: AppListener;
  type: unknown;
}

export class LiveSession {
  readonly trace = new Trace();
  readonly scenario: Scenario;
  readonly world: WorldDescription;
  bytesIn = 0;
  bytesOut = 0;
  /** why the line ended, once it has (null while it is up) */
  ended: string | null = null;
  private line: SerialLine | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** performance.now() at the session's zero; moved on when a wake-up comes late (see wake) */
  private t0 = performance.now();
  private readonly apps = new Map<number, RunningApp>();
  private readonly changeListeners = new Set<() => void>();

  private constructor(
    private readonly engine: Engine,
    readonly baud: number,
    readonly label: string,
  ) {
    this.scenario = liveScenario(label);
    this.world = engine.describe();
  }

  /** Opens the port at `baud` and starts the page's host on it. */
  static async connect(port: SerialPort, baud: number, label: string, mod?: EngineModule): Promise<LiveSession> {
    const engine = await Engine.create(JSON.stringify(liveScenario(label)), mod);
    const s = new LiveSession(engine, baud, label);
    try {
      s.line = await openSerialLine(port, baud, {
        onBytes: (b) => s.input(b),
        onEnd: (problem) => s.lineEnded(problem),
      });
    } catch (e) {
      engine.destroy();
      throw e;
    }
    s.advance();
    return s;
  }

  /** Microseconds since the session started: the engine's clock. */
  nowUs(): number {
    return Math.round((performance.now() - this.t0) * 1000);
  }

  /** Starts an application of the page's host (the scenario's app object); its records go to `listener`. */
  startApp(app: Record<string, unknown>, listener: AppListener): number {
    if (this.ended !== null) throw new Error(`the session is over: ${this.ended}`);
    this.engine.run(this.nowUs());
    const index = this.engine.appAdd({ host: 'pc', ...app });
    this.apps.set(index, { listener, type: app.type });
    this.advance();
    return index;
  }

  /** Hands bytes to a tcp_client app; returns how many it took. */
  sendToApp(app: number, bytes: Uint8Array): number {
    if (this.ended !== null) throw new Error(`the session is over: ${this.ended}`);
    this.engine.run(this.nowUs());
    const n = this.engine.appSend(app, bytes);
    this.advance();
    return n;
  }

  /** Ends an app: FIN for a tcp_client, the summary for a ping. */
  closeApp(app: number): void {
    if (this.ended !== null) throw new Error(`the session is over: ${this.ended}`);
    this.engine.run(this.nowUs());
    this.engine.appClose(app);
    this.advance();
  }

  onChange(l: () => void): () => void {
    this.changeListeners.add(l);
    return () => this.changeListeners.delete(l);
  }

  /** The session so far, as the views take a run. */
  snapshot(): RunResult {
    return {
      world: this.world,
      trace: this.trace,
      hash: this.engine.hash(),
      pcapng: this.engine.pcapng(),
      virtualUs: this.engine.nowUs,
      traceBytes: new Uint8Array(0), // the raw record stream is the CLI's --trace file; a session keeps the parsed records only
    };
  }

  pcapng(): Uint8Array {
    return this.engine.pcapng();
  }

  /** Closes the port; the capture stays. */
  async disconnect(): Promise<void> {
    const line = this.line;
    this.line = null;
    await line?.close();
  }

  private input(bytes: Uint8Array): void {
    if (this.ended !== null) return;
    this.bytesIn += bytes.length;
    this.engine.run(this.nowUs());
    this.engine.portWrite(PORT_LINK, bytes);
    this.advance();
  }

  /** Runs the engine to now, sends what its host sent, reads the records, sets the next wake-up. */
  private advance(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.ended !== null) return;
    const over = this.engine.run(this.nowUs());
    const out = this.engine.portRead(PORT_LINK);
    if (out.length && this.line) {
      this.bytesOut += out.length;
      this.line.write(out);
    }
    this.collect();
    if (over) {
      this.lineEnded('the session reached its time limit (33 minutes); connect again for a new one');
      void this.disconnect();
      return;
    }
    const next = this.engine.nextEventUs();
    if (next >= 0) this.timer = setTimeout(() => this.wake(next), Math.max(0, (next - this.nowUs()) / 1000));
  }

  /** The engine's next deadline, `dueUs`, as the browser's timer delivers it: late by a few
   * ms, more when the page was busy drawing. What the stack does at its deadline really
   * happens now, so the session's clock is held back by the lateness: a ping request sent
   * late is stamped when it left, and its RTT is the time the line really took. */
  private wake(dueUs: number): void {
    const late = this.nowUs() - dueUs;
    if (late > 0) this.t0 += late / 1000;
    this.advance();
  }

  private collect(): void {
    const batch = this.engine.takeTrace();
    if (batch.length === 0) return;
    const firstApp = this.trace.apps.length;
    this.trace.append(batch);
    for (const rec of this.trace.apps.slice(firstApp)) {
      this.apps.get(rec.app)?.listener(rec);
      if (rec.kind === AppRecordKind.Report) this.apps.delete(rec.app);
    }
    for (const l of this.changeListeners) l();
  }

  private lineEnded(problem: string | null): void {
    if (this.ended !== null) return;
    this.engine.run(this.nowUs());
    this.collect();
    this.stopPings();
    this.ended = problem ?? 'disconnected';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const l of this.changeListeners) l();
  }

  /** A ping cut short by the line's end says what it got, as iputils does when its
   * interface goes away and the user presses Ctrl-C: the statistics of the requests sent.
   * Closing a ping sends nothing, so the capture is what the line carried. */
  private stopPings(): void {
    for (const [index, app] of this.apps) if (app.type === 'ping') this.engine.appClose(index);
    this.collect();
  }
}
