// Loading the wasm engine (wasm/api, built by `make wasm-engine` into ./wasm/). The same
// artifact serves the page's worker and Node: Vite turns the glue's reference to the .wasm
// into an asset URL for the browser; in Node the bytes are read from disk and handed over,
// because Emscripten 3.1.6's glue would try fetch() on a file path.
import createEngineModule from './wasm/stackscope-engine.mjs';

/** engine.h's return codes (a test holds them to the header): every call that can fail
 *  returns a negative code; ENGINE_ERR_INVALID means the scenario or app is at fault. */
export const ENGINE_OK = 0;
export const ENGINE_ERR_FAILED = -1;
export const ENGINE_ERR_INVALID = -2;

/** engine.h's ENGINE_API functions, as Emscripten exports them (a test holds this list to
 *  the header and to the built module). */
export interface EngineModule {
  HEAPU8: Uint8Array;
  UTF8ToString(ptr: number, maxBytes?: number): string;
  _engine_create(): number;
  _engine_destroy(e: number): void;
  _engine_load(e: number, json: number, len: number): number;
  _engine_error(e: number): number;
  _engine_run(e: number, untilUs: number): number;
  _engine_now(e: number): number;
  _engine_duration(e: number): number;
  _engine_next_event(e: number): number;
  _engine_trace_ptr(e: number): number;
  _engine_trace_len(e: number): number;
  _engine_trace_clear(e: number): void;
  _engine_trace_total(e: number): number;
  _engine_frames(e: number): number;
  _engine_capture(e: number, on: number): number;
  _engine_pcapng_ptr(e: number): number;
  _engine_pcapng_len(e: number): number;
  _engine_pcapng_clear(e: number): void;
  _engine_hash(e: number): number;
  _engine_describe(e: number): number;
  _engine_port_write(e: number, link: number, bytes: number, n: number): number;
  _engine_port_read(e: number, link: number, buf: number, cap: number): number;
  _engine_app_add(e: number, json: number, len: number): number;
  _engine_app_send(e: number, app: number, bytes: number, n: number): number;
  _engine_app_close(e: number, app: number): number;
  _engine_app_checked(e: number, app: number): number;
  _engine_app_mismatched(e: number, app: number): number;
  _engine_alloc(n: number): number;
  _engine_free(p: number): void;
}

type Factory = (opts?: { wasmBinary?: Uint8Array }) => Promise<EngineModule>;

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** Where the build puts the .wasm, relative to this file (Node reads it from there). */
export const ENGINE_WASM_URL = new URL('./wasm/stackscope-engine.wasm', import.meta.url);

export async function loadEngineModule(): Promise<EngineModule> {
  const factory = createEngineModule as Factory;
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return factory({ wasmBinary: new Uint8Array(await readFile(ENGINE_WASM_URL)) });
  }
  return factory();
}
