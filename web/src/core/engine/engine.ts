// The engine as TypeScript sees it: one run of one scenario. Wraps the C exports of
// wasm/api/engine.h; the trace comes out in batches of records (trace_reader.ts).
import { ENGINE_ERR_INVALID, ENGINE_OK, loadEngineModule, type EngineModule } from './engine_module.ts';
import type { WorldDescription } from './trace_types.ts';

/** The engine refused the scenario: `message` names the field and the reason. */
export class EngineScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineScenarioError';
  }
}

/** The engine ran out of memory for the trace or the capture: the run's output is
 *  incomplete and the run cannot go on. */
export class EngineMemoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineMemoryError';
  }
}

/** An app's content check: bytes it compared with those it expected, and how many differed. */
export interface AppCheck {
  checked: number;
  mismatched: number;
}

export class Engine {
  private readonly mod: EngineModule;
  private handle: number;

  private constructor(mod: EngineModule, handle: number) {
    this.mod = mod;
    this.handle = handle;
  }

  /** A new engine holding the scenario (JSON text, validated by web/src/core/scenarios first).
   *  `capture: false` builds no pcapng file (pcapng() stays empty): for a caller that takes
   *  only the trace, which is the same either way. */
  static async create(scenarioJson: string, mod?: EngineModule, options: { capture?: boolean } = {}): Promise<Engine> {
    const m = mod ?? (await loadEngineModule());
    const handle = m._engine_create();
    if (!handle) throw new Error('engine: out of memory');
    const engine = new Engine(m, handle);
    if (options.capture === false) m._engine_capture(handle, 0);
    const bytes = new TextEncoder().encode(scenarioJson);
    const ptr = m._engine_alloc(bytes.length);
    m.HEAPU8.set(bytes, ptr);
    const rc = m._engine_load(handle, ptr, bytes.length);
    m._engine_free(ptr);
    if (rc !== ENGINE_OK) {
      const msg = m.UTF8ToString(m._engine_error(handle));
      engine.destroy();
      if (rc === ENGINE_ERR_INVALID) throw new EngineScenarioError(msg);
      throw new Error(`engine: ${msg}`);
    }
    return engine;
  }

  private get h(): number {
    if (!this.handle) throw new Error('engine: used after destroy()');
    return this.handle;
  }

  /** Runs to `untilUs` of virtual time; true once the run is over. Throws once memory ran
   *  out for the trace or the capture: what was lost cannot be made up, so the run ends. */
  run(untilUs: number): boolean {
    const rc = this.mod._engine_run(this.h, untilUs);
    if (rc < 0) throw new EngineMemoryError(`engine: ${this.error()}`);
    return rc === 1;
  }

  get nowUs(): number {
    return this.mod._engine_now(this.h);
  }

  get durationUs(): number {
    return this.mod._engine_duration(this.h);
  }

  /** The next virtual instant at which something is due, or -1 (real-time mode: when to wake). */
  nextEventUs(): number {
    return this.mod._engine_next_event(this.h);
  }

  /** The records written since the last call, copied out of wasm memory. */
  takeTrace(): Uint8Array {
    const out = this.traceView().slice();
    this.clearTrace();
    return out;
  }

  /** The records written since the last clearTrace() or takeTrace(), in wasm memory, not
   *  copied: valid only until the next call into the engine (for a reader that looks once
   *  and keeps nothing, as the bench counting frames). */
  traceView(): Uint8Array {
    const ptr = this.mod._engine_trace_ptr(this.h);
    return this.mod.HEAPU8.subarray(ptr, ptr + this.mod._engine_trace_len(this.h));
  }

  clearTrace(): void {
    this.mod._engine_trace_clear(this.h);
  }

  /** The capture file as far as written (since the last takePcapng(), if any), copied out. */
  pcapng(): Uint8Array {
    const ptr = this.mod._engine_pcapng_ptr(this.h);
    return this.mod.HEAPU8.slice(ptr, ptr + this.mod._engine_pcapng_len(this.h));
  }

  /** The capture bytes written since the last call, copied out, and forgotten by the
   *  engine: a caller that writes them as it goes keeps memory at one slice's worth. */
  takePcapng(): Uint8Array {
    const out = this.pcapng();
    this.mod._engine_pcapng_clear(this.h);
    return out;
  }

  /** The 64-bit fingerprint of every record byte so far (docs/trace-format.md), 16 hex digits. */
  hash(): string {
    return this.mod.UTF8ToString(this.mod._engine_hash(this.h));
  }

  describe(): WorldDescription {
    return JSON.parse(this.mod.UTF8ToString(this.mod._engine_describe(this.h))) as WorldDescription;
  }

  /** Real-time mode: bytes the serial port received, into the external link. */
  portWrite(link: number, bytes: Uint8Array): void {
    const ptr = this.mod._engine_alloc(bytes.length);
    this.mod.HEAPU8.set(bytes, ptr);
    const rc = this.mod._engine_port_write(this.h, link, ptr, bytes.length);
    this.mod._engine_free(ptr);
    if (rc !== ENGINE_OK) throw new Error(`engine: link ${link} is not an external link`);
  }

  /** Real-time mode: bytes the world's host sent to the serial port. */
  portRead(link: number, cap = 65536): Uint8Array {
    const ptr = this.mod._engine_alloc(cap);
    const n = this.mod._engine_port_read(this.h, link, ptr, cap);
    const out = this.mod.HEAPU8.slice(ptr, ptr + n);
    this.mod._engine_free(ptr);
    return out;
  }

  /**
   * Real-time mode: starts an application now (at `nowUs`), as an entry of a scenario's
   * `apps` is written (docs/scenario-format.md), without `start_ms`; not the
   * request/response types. Returns its index: the `app` of its trace records. Throws
   * EngineScenarioError naming the problem ("app.to: ...", "app: no free app slot (32 in
   * use)").
   */
  appAdd(app: object | string): number {
    const bytes = new TextEncoder().encode(typeof app === 'string' ? app : JSON.stringify(app));
    const ptr = this.mod._engine_alloc(bytes.length);
    this.mod.HEAPU8.set(bytes, ptr);
    const rc = this.mod._engine_app_add(this.h, ptr, bytes.length);
    this.mod._engine_free(ptr);
    if (rc < 0) throw new EngineScenarioError(this.error());
    return rc;
  }

  /**
   * Bytes for a tcp_client to send, now. Returns how many it took: fewer than given when
   * its buffers are full (TCP's send buffer, then a 4096-byte ring); send the rest later.
   */
  appSend(app: number, bytes: Uint8Array): number {
    const ptr = this.mod._engine_alloc(bytes.length);
    this.mod.HEAPU8.set(bytes, ptr);
    const rc = this.mod._engine_app_send(this.h, app, ptr, bytes.length);
    this.mod._engine_free(ptr);
    if (rc < 0) throw new Error(`engine: ${this.error()}`);
    return rc;
  }

  /** A tcp_client closes (FIN after its queued bytes); a ping stops and prints its statistics (^C). */
  appClose(app: number): void {
    if (this.mod._engine_app_close(this.h, app) < 0) throw new Error(`engine: ${this.error()}`);
  }

  /**
   * What app `app` found when it compared the bytes it received with those it expected,
   * so far: bytes checked and how many differed; null for an app that checks nothing (a
   * ping, a server that echoes or discards, a send-only echo client, a tcp_client).
   */
  appCheck(app: number): AppCheck | null {
    const checked = this.mod._engine_app_checked(this.h, app);
    return checked < 0 ? null : { checked, mismatched: this.mod._engine_app_mismatched(this.h, app) };
  }

  private error(): string {
    return this.mod.UTF8ToString(this.mod._engine_error(this.h));
  }

  destroy(): void {
    if (this.handle) this.mod._engine_destroy(this.handle);
    this.handle = 0;
  }
}
