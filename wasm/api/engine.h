/* The engine API: what the page's Web Worker and the `stackscope` command call, in wasm
 * (web/src/core/engine/engine.ts wraps these exports) and natively (wasm/api/main_native.c).
 *
 *   e = engine_create()
 *   engine_load(e, json, len)       0, or ENGINE_ERR_INVALID with engine_error(e) naming the
 *                                   field and the reason ("links[0].baud: must be ...")
 *   engine_run(e, until_us)         runs to that virtual time; 1 once the run is over,
 *                                   ENGINE_ERR_FAILED once memory ran out for the trace or
 *                                   the capture (engine_error says which; the output is
 *                                   incomplete and the run cannot go on)
 *   engine_trace_ptr/len(e)         the records written since the last engine_trace_clear
 *                                   (wasm/sim/trace_rec.h, docs/trace-format.md)
 *   engine_capture(e, on)           before engine_load: 0 builds no capture file (a
 *                                   caller that takes only the trace); 1, the default,
 *                                   builds it
 *   engine_pcapng_ptr/len(e)        the capture file written since the last
 *                                   engine_pcapng_clear (all of it for a caller that never
 *                                   clears: the page); a caller that clears after each
 *                                   slice of engine_run writes the file as it goes
 *   engine_hash(e)                  the trace's 64-bit fingerprint as 16 hex digits
 *   engine_describe(e)              JSON: names of hosts, links, kinds, reasons
 *   engine_port_write/read(e, ...)  real-time mode: bytes of an external link
 *   engine_app_add/send/close(e, ...)  applications started, fed and stopped while the
 *                                   world runs (the page's tools in real-time mode)
 *   engine_app_checked/mismatched(e, app)  the bytes an app checked, and those that differed
 *   engine_destroy(e)
 *
 * Times cross the boundary as doubles (exact for integers below 2^53 us, 285 years), so
 * JavaScript needs no BigInt.
 */
#ifndef API_ENGINE_H
#define API_ENGINE_H

#include <stdint.h>

/* Every call that can fail returns a negative ENGINE_ERR_* and engine_error() says why;
 * success is ENGINE_OK or, where a call says so, a count or an index. */
#define ENGINE_OK          0
#define ENGINE_ERR_FAILED  (-1) /* out of memory, or called in the wrong state */
#define ENGINE_ERR_INVALID (-2) /* the scenario (or an app) is not valid */

/* The exports of the wasm build are the functions declared ENGINE_API, and only they:
 * Emscripten keeps and exports them (engine.o is linked whole for it). */
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define ENGINE_API EMSCRIPTEN_KEEPALIVE
#else
#define ENGINE_API
#endif

struct engine;

ENGINE_API struct engine *engine_create(void);
ENGINE_API void engine_destroy(struct engine *e);
ENGINE_API int engine_load(struct engine *e, const char *json, uint32_t len);
ENGINE_API const char *engine_error(const struct engine *e);

ENGINE_API int engine_run(struct engine *e, double until_us);
ENGINE_API double engine_now(const struct engine *e);
ENGINE_API double engine_duration(const struct engine *e);
/* The next virtual instant with something to do, or -1 (real-time mode: when to wake). */
ENGINE_API double engine_next_event(const struct engine *e);

ENGINE_API const uint8_t *engine_trace_ptr(struct engine *e);
ENGINE_API uint32_t engine_trace_len(struct engine *e);
ENGINE_API void engine_trace_clear(struct engine *e);
/* Records and bytes written since the start, including those cleared. */
ENGINE_API double engine_trace_total(struct engine *e);
/* Frames sent since the start on every link: the TREC_FRAME records written, cleared or
 * not (a count without reading the trace). */
ENGINE_API double engine_frames(const struct engine *e);

/* Whether the run builds the pcapng file (on by default). Called before engine_load, as
 * the file starts with the world; ENGINE_ERR_FAILED afterwards. Off, engine_pcapng_len
 * stays 0 and the capture takes no memory and no time; the trace (and its hash) is the
 * same either way. */
ENGINE_API int engine_capture(struct engine *e, int on);
ENGINE_API const uint8_t *engine_pcapng_ptr(struct engine *e);
ENGINE_API uint32_t engine_pcapng_len(struct engine *e);
ENGINE_API void engine_pcapng_clear(struct engine *e);

ENGINE_API const char *engine_hash(struct engine *e);
ENGINE_API const char *engine_describe(struct engine *e);

ENGINE_API int engine_port_write(struct engine *e, uint32_t link, const uint8_t *bytes, uint32_t n);
ENGINE_API uint32_t engine_port_read(struct engine *e, uint32_t link, uint8_t *buf, uint32_t cap);

/* Applications in a running world, at its current time (engine_now; run the world to the
 * present first). Failures return ENGINE_ERR_INVALID or ENGINE_ERR_FAILED, engine_error()
 * says why.
 *
 * engine_app_add: one app object as in a scenario's `apps` (docs/scenario-format.md),
 * read by the same reader under the path "app" ("app.to: names \"c\", which does not
 * exist": ENGINE_ERR_INVALID), without `start_ms` (it starts now) and not of the
 * request/response types. Returns its index, the `app` of its trace records: a new one
 * while fewer than 32 apps exist, then the index of a client that has finished and
 * reported ("app: no free app slot (64 in use)": ENGINE_ERR_FAILED when there is none).
 *
 * engine_app_send: bytes for a tcp_client to send; returns the count taken (fewer than n
 * when its 4096-byte ring is full), ENGINE_ERR_FAILED for another app or one that is closing
 * or finished.
 *
 * engine_app_close: a tcp_client sends FIN after its queued bytes and reads on until the
 * peer's FIN; a ping sends no more requests and writes its statistics now (^C). 0, or
 * ENGINE_ERR_FAILED for another app or one that has finished. */
ENGINE_API int engine_app_add(struct engine *e, const char *json, uint32_t len);
ENGINE_API int engine_app_send(struct engine *e, uint32_t app, const uint8_t *bytes, uint32_t n);
ENGINE_API int engine_app_close(struct engine *e, uint32_t app);

/* The content check of app `app` (the `app` of its trace records) so far: the bytes it
 * compared with the ones it expected, and how many of them differed; both -1 for an app
 * that checks nothing (world_app_check in world.h says which do). Not in the trace: the
 * caller asks at the end of the run. */
ENGINE_API double engine_app_checked(const struct engine *e, uint32_t app);
ENGINE_API double engine_app_mismatched(const struct engine *e, uint32_t app);

/* Scratch memory for the caller to pass bytes in (wasm has no other way to hand over a
 * string): engine_alloc/engine_free are malloc/free. */
ENGINE_API void *engine_alloc(uint32_t n);
ENGINE_API void engine_free(void *p);

#endif
