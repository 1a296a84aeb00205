# Builds the C parts of stackscope. npm scripts call these targets; see package.json.
#
#   make native      the stack as a library and the native tools, into build/native/
#   make test-c      every C unit test under ASan and UBSan, then the count
#   make wasm-lib    the stack compiled by emcc, warnings are errors
#   make check-globals   no mutable file-level state in wasm/stack (only const tables)

CC ?= cc
EMCC ?= emcc
BUILD := build

STACK_SRCS := $(sort $(wildcard wasm/stack/*.c wasm/stack/apps/*.c))
# The simulator builds with the stack, under the same rules (warnings, no file-level state).
SIM_SRCS := $(sort $(wildcard wasm/sim/*.c))
# The engine (scenario loading, trace records) also builds under those rules; its wasm
# exports and the native command-line driver are separate (wasm/api/main_*.c).
API_SRCS := $(filter-out wasm/api/main_%.c,$(sort $(wildcard wasm/api/*.c)))
CORE_SRCS := $(STACK_SRCS) $(SIM_SRCS) $(API_SRCS)
CORE_HDRS := $(wildcard wasm/stack/*.h wasm/stack/apps/*.h wasm/sim/*.h wasm/api/*.h)
TEST_SRCS := $(sort $(wildcard wasm/tests/test_*.c))
SUPPORT_SRCS := $(sort $(wildcard wasm/tests/support/*.c))

WARN := -std=c99 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
INC := -Iwasm/stack -Iwasm/stack/apps -Iwasm/sim -Iwasm/api -Iwasm/tests/support

NATIVE_CFLAGS := $(WARN) -O2 -g $(INC)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TEST_CFLAGS := -std=c99 -Wall -Wextra -Werror -O1 -g $(SAN) $(INC)

NATIVE_OBJS := $(patsubst wasm/%.c,$(BUILD)/native/obj/%.o,$(CORE_SRCS))
ASAN_OBJS := $(patsubst wasm/%.c,$(BUILD)/asan/obj/%.o,$(CORE_SRCS) $(SUPPORT_SRCS))
WASM_OBJS := $(patsubst wasm/%.c,$(BUILD)/wasm/obj/%.o,$(CORE_SRCS))
TEST_BINS := $(patsubst wasm/tests/%.c,$(BUILD)/asan/tests/%,$(TEST_SRCS))

.PHONY: native test-c test-bins wasm-lib wasm-engine check-globals fuzz-bins fuzz-corpus clean

TUN_SRCS := $(sort $(wildcard wasm/tun/*.c))

native: $(BUILD)/native/libstack.a $(BUILD)/native/stackscope-demo $(BUILD)/native/stackscope-tun \
	$(BUILD)/native/stackscope-engine

$(BUILD)/native/obj/%.o: wasm/%.c $(CORE_HDRS) $(wildcard wasm/tests/support/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -c $< -o $@

$(BUILD)/native/libstack.a: $(NATIVE_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The demo runs on the fake network of the tests, built here without sanitizers.
SUPPORT_NATIVE_OBJS := $(patsubst wasm/%.c,$(BUILD)/native/obj/%.o,$(SUPPORT_SRCS))

DEMO_SRCS := $(sort $(wildcard wasm/tests/demo/*.c))

$(BUILD)/native/stackscope-demo: $(DEMO_SRCS) $(wildcard wasm/tests/demo/*.h) $(SUPPORT_NATIVE_OBJS) $(BUILD)/native/libstack.a
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -Iwasm/tests/demo $(DEMO_SRCS) $(SUPPORT_NATIVE_OBJS) $(BUILD)/native/libstack.a -o $@

# The engine natively: the determinism test and the benchmark run it beside the wasm build.
$(BUILD)/native/stackscope-engine: wasm/api/main_native.c $(BUILD)/native/libstack.a
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) $< $(BUILD)/native/libstack.a -o $@

# The TUN harness: one host on a Linux TUN device (the interop test's peer).
$(BUILD)/native/stackscope-tun: $(TUN_SRCS) $(wildcard wasm/tun/*.h) $(BUILD)/native/libstack.a
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -Iwasm/tun $(TUN_SRCS) $(BUILD)/native/libstack.a -o $@

$(BUILD)/asan/obj/%.o: wasm/%.c $(CORE_HDRS) $(wildcard wasm/tests/support/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/asan/libstack.a: $(ASAN_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/asan/tests/%: wasm/tests/%.c wasm/tests/unit.h $(BUILD)/asan/libstack.a
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Wno-missing-prototypes $< $(BUILD)/asan/libstack.a -o $@

# The stack with the TCP responder alone (STACK_TCP_RESPONDER 2, as a firmware builds it,
# and entries without the peer's address, TCP_RESPONDER_PEER_ADDR 0): the full TCP's files,
# the socket calls and the apps are not compiled, so the link proves that nothing else
# refers to them, and the responder's tests run again on that stack.
RESP_ONLY_SRCS := $(filter-out wasm/stack/tcp.c wasm/stack/tcp_%.c wasm/stack/socket_tcp.c \
	wasm/stack/apps/%,$(STACK_SRCS)) wasm/stack/tcp_responder.c wasm/stack/tcp_responder_window.c \
	wasm/tests/support/tcp_lab.c wasm/tests/support/tcp_seg.c
RESP_ONLY_OBJS := $(patsubst wasm/%.c,$(BUILD)/asan-responder/obj/%.o,$(RESP_ONLY_SRCS))
RESP_ONLY_BIN := $(BUILD)/asan/tests/test_tcp_responder_only
RESP_ONLY_DEFS := -DSTACK_TCP_RESPONDER=2 -DTCP_RESPONDER_PEER_ADDR=0

$(BUILD)/asan-responder/obj/%.o: wasm/%.c $(CORE_HDRS) $(wildcard wasm/tests/support/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(RESP_ONLY_DEFS) -c $< -o $@

$(RESP_ONLY_BIN): wasm/tests/test_tcp_responder.c wasm/tests/unit.h $(RESP_ONLY_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(RESP_ONLY_DEFS) -Wno-missing-prototypes $< $(RESP_ONLY_OBJS) -o $@

test-bins: $(TEST_BINS) $(RESP_ONLY_BIN)

test-c: test-bins check-globals
	@bash scripts/run-c-tests.sh $(TEST_BINS) $(RESP_ONLY_BIN)

# libFuzzer targets (clang), with ASan and UBSan. The stack and the fuzz support code are
# an archive, so each target links only what it uses.
FUZZ_TARGETS := fuzz_slip fuzz_vj fuzz_ip_input fuzz_tcp_session fuzz_json fuzz_scenario
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c99 -g -O1 $(FUZZ_SAN) $(INC) -Iwasm/tests/fuzz
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS))
FUZZ_LIB_SRCS := $(STACK_SRCS) $(SIM_SRCS) $(API_SRCS) wasm/tests/fuzz/fuzz_host.c
FUZZ_OBJS := $(patsubst wasm/%.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_LIB_SRCS))

$(BUILD)/fuzz/obj/%.o: wasm/%.c $(CORE_HDRS) $(wildcard wasm/tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/libstack.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: wasm/tests/fuzz/%.c $(BUILD)/fuzz/libstack.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(BUILD)/fuzz/libstack.a -o $@

fuzz-bins: $(FUZZ_BINS)

# Regenerates the seed corpora from real traffic between two stackscope hosts.
fuzz-corpus: wasm/tests/fuzz/make_corpus.c $(BUILD)/native/libstack.a $(SUPPORT_NATIVE_OBJS)
	$(CC) $(NATIVE_CFLAGS) $< $(SUPPORT_NATIVE_OBJS) $(BUILD)/native/libstack.a -o $(BUILD)/native/make_corpus
	rm -rf wasm/tests/fuzz/corpus
	$(BUILD)/native/make_corpus wasm/tests/fuzz/corpus

# The scenario reader and the world's description run once per load, never per frame, and
# the stack's words (ping's lines, drop reasons, text formatting) and the Arduino's TCP
# responder (only the responder apps use it) run far from the bulk path: built for size,
# they take about 3.5 KB (gzipped) off the page's first download. The per-frame code stays
# -O2: -Os throughout makes the engine 2.5 to 4 times slower (docs/performance.md).
WASM_LOAD_SRCS := wasm/api/json.c $(filter wasm/api/scenario_%.c,$(API_SRCS)) wasm/sim/world_describe.c \
  wasm/stack/ping_format.c wasm/stack/drop_reason.c wasm/stack/text_fmt.c wasm/stack/tcp_responder.c \
  wasm/stack/tcp_responder_window.c
WASM_OPT := -O2
$(patsubst wasm/%.c,$(BUILD)/wasm/obj/%.o,$(WASM_LOAD_SRCS)): WASM_OPT := -Oz
# Bulk memory (every browser since 2021, Node 12.5): memcpy and memset as one instruction
# each. Without it a copy of 512 bytes or more (each frame, several times) is a call out
# to JavaScript (emscripten_memcpy_big), 6 % of the wasm engine's time on a bulk transfer.
# -O3 and -msimd128 were measured too: no faster on it, 1.5 and 2.6 KB more gzipped.
WASM_CFLAGS = $(WASM_OPT) -mbulk-memory

$(BUILD)/wasm/obj/%.o: wasm/%.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(EMCC) $(WARN) $(WASM_CFLAGS) $(INC) -c $< -o $@

wasm-lib: $(BUILD)/wasm/libstack.a

# The engine as one ES module and its .wasm, for the page's worker and for Node (the
# `stackscope` command, vitest): kept in web/src so Vite resolves the .wasm next to it.
ENGINE_JS := web/src/core/engine/wasm/stackscope-engine.mjs
wasm-engine: $(ENGINE_JS)

# The exports are engine.h's ENGINE_API functions (EMSCRIPTEN_KEEPALIVE): engine.o is
# linked whole so that they are kept, the rest comes from the archive as needed.
$(ENGINE_JS): $(BUILD)/wasm/libstack.a
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_CFLAGS) $(BUILD)/wasm/obj/api/engine.o $(BUILD)/wasm/libstack.a -o $@ \
	  -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web,worker -sEXPORT_NAME=createEngineModule \
	  -sALLOW_MEMORY_GROWTH=1 -sMALLOC=emmalloc -sASSERTIONS=0 -sFILESYSTEM=0 \
	  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,HEAPU8
	printf '%s\n' '// generated by make wasm-engine: the Emscripten factory (typed in engine_module.ts)' \
	  'declare const createEngineModule: (opts?: { wasmBinary?: Uint8Array }) => Promise<unknown>;' \
	  'export default createEngineModule;' > $(ENGINE_JS:.mjs=.d.mts)

$(BUILD)/wasm/libstack.a: $(WASM_OBJS)
	@rm -f $@
	emar rcs $@ $^

# Mutable file-level state lives in .data, .bss or COMMON; const tables are in .rodata or,
# when they hold pointers, .data.rel.ro (read-only after relocation). The stack must have
# none of the former.
check-globals: $(NATIVE_OBJS)
	@bad=$$(objdump -t $(NATIVE_OBJS) | awk '$$0 ~ / O / && ($$4 ~ /^\.(data|bss)/ || $$4 == "*COM*") && $$4 !~ /^\.data\.rel\.ro/ {print $$NF}'); \
	if [ -n "$$bad" ]; then echo "mutable file-level state in wasm/stack or wasm/sim: $$bad"; exit 1; fi; \
	echo "check-globals: no mutable file-level state in $(words $(NATIVE_OBJS)) stack and simulator objects"

clean:
	rm -rf $(BUILD)

# ---- The Arduino Uno firmware (firmware/): the stack on an ATmega328P ----
#
#   make firmware          build/firmware/stackscope-echo.{elf,hex}, then flash and RAM use
#   make firmware-sketch   the stack's sources into firmware/stackscope_echo/src/ (Arduino IDE)
#   make firmware-sim      build/firmware/stackscope-simavr: simavr with UART0 on a pty, and
#                          build/firmware/stackscope-slipbridge: a SLIP line to a TUN device
#
# The firmware is compiled from a complete sketch folder (make-sketch.sh), the layout the
# Arduino IDE builds, with the IDE's flags for an Uno and Debian's Arduino core as an
# archive, as the IDE links it. The stack's files keep the stack's warnings (errors).
AVR_CC := avr-gcc
AVR_CXX := avr-g++
AVR_AR := avr-gcc-ar
ARDUINO_AVR ?= /usr/share/arduino/hardware/arduino/avr
FW := $(BUILD)/firmware
FW_SKETCH := $(FW)/sketch/stackscope_echo
FW_ARCH := -mmcu=atmega328p -DF_CPU=16000000L -DARDUINO=10819 -DARDUINO_AVR_UNO -DARDUINO_ARCH_AVR
FW_OPT := -Os -g -ffunction-sections -fdata-sections -flto -fno-fat-lto-objects
FW_CORE_INC := -I$(ARDUINO_AVR)/cores/arduino -I$(ARDUINO_AVR)/variants/standard
FW_CFLAGS := $(FW_ARCH) $(FW_OPT) $(FW_CORE_INC)
# Debian's core 1.8.7 with avr-gcc 5.4 does not define DECIMAL_DIG for C++.
FW_CXXFLAGS := $(FW_ARCH) $(FW_OPT) $(FW_CORE_INC) -std=gnu++11 -fpermissive -fno-exceptions \
	-fno-threadsafe-statics -DDECIMAL_DIG=__DECIMAL_DIG__
FW_STACK := $(notdir $(shell grep -v '^\#' firmware/stack-sources.txt))
FW_OWN := $(notdir $(wildcard firmware/stackscope_echo/*.c))
FW_CORE := $(wildcard $(ARDUINO_AVR)/cores/arduino/*.c $(ARDUINO_AVR)/cores/arduino/*.cpp \
	$(ARDUINO_AVR)/cores/arduino/*.S)
FW_CORE_OBJS := $(patsubst $(ARDUINO_AVR)/cores/arduino/%,$(FW)/core/%.o,$(FW_CORE))
FW_OBJS := $(addprefix $(FW)/obj/stack/,$(FW_STACK:.c=.o)) $(addprefix $(FW)/obj/,$(FW_OWN:.c=.o)) \
	$(FW)/obj/stackscope_echo.ino.o

.PHONY: firmware firmware-sketch firmware-sim

firmware: $(FW)/stackscope-echo.hex
	@bash firmware/size-report.sh $(FW)/stackscope-echo.elf

firmware-sketch:
	bash firmware/make-sketch.sh

firmware-sim: $(FW)/stackscope-simavr $(FW)/stackscope-slipbridge

$(FW)/sketch.stamp: firmware/make-sketch.sh firmware/stack-sources.txt $(wildcard wasm/stack/*.[ch] \
	wasm/stack/apps/*.[ch] firmware/stackscope_echo/*.c firmware/stackscope_echo/*.h \
	firmware/stackscope_echo/*.ino)
	@rm -rf $(FW)/sketch
	@bash firmware/make-sketch.sh $(FW)/sketch >/dev/null
	@touch $@

$(FW)/obj/stack/%.o: $(FW)/sketch.stamp
	@mkdir -p $(dir $@)
	$(AVR_CC) $(FW_CFLAGS) $(WARN) -c $(FW_SKETCH)/src/stack/$*.c -o $@

$(FW)/obj/%.o: $(FW)/sketch.stamp
	@mkdir -p $(dir $@)
	$(AVR_CC) $(FW_CFLAGS) -std=gnu99 -Wall -Wextra -Werror -c $(FW_SKETCH)/$*.c -o $@

# The IDE turns the .ino into C++ that includes Arduino.h first; this sketch needs no more.
$(FW)/obj/stackscope_echo.ino.o: $(FW)/sketch.stamp
	@mkdir -p $(dir $@)
	$(AVR_CXX) $(FW_CXXFLAGS) -Wall -Wextra -Werror -x c++ -include Arduino.h \
	  -c $(FW_SKETCH)/stackscope_echo.ino -o $@

$(FW)/core/%.c.o: $(ARDUINO_AVR)/cores/arduino/%.c
	@mkdir -p $(dir $@)
	$(AVR_CC) $(FW_CFLAGS) -std=gnu11 -w -c $< -o $@

$(FW)/core/%.cpp.o: $(ARDUINO_AVR)/cores/arduino/%.cpp
	@mkdir -p $(dir $@)
	$(AVR_CXX) $(FW_CXXFLAGS) -w -c $< -o $@

$(FW)/core/%.S.o: $(ARDUINO_AVR)/cores/arduino/%.S
	@mkdir -p $(dir $@)
	$(AVR_CC) $(FW_ARCH) -x assembler-with-cpp -flto $(FW_CORE_INC) -c $< -o $@

$(FW)/core.a: $(FW_CORE_OBJS)
	@rm -f $@
	$(AVR_AR) rcs $@ $^

$(FW)/stackscope-echo.elf: $(FW_OBJS) $(FW)/core.a
	$(AVR_CC) $(FW_ARCH) -Os -g -flto -fuse-linker-plugin -Wl,--gc-sections $(FW_OBJS) \
	  $(FW)/core.a -lm -o $@

$(FW)/stackscope-echo.hex: $(FW)/stackscope-echo.elf
	avr-objcopy -O ihex -R .eeprom $< $@

$(FW)/stackscope-simavr: firmware/sim/simavr_pty.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu99 -O2 -Wall -Wextra -Werror $< -lsimavr -lelf -lutil -o $@

# The Linux peer's SLIP line (firmware/tests/bench_linux.sh): the TUN harness's device and
# serial code and the stack's SLIP codec, nothing else of the stack.
BRIDGE_SRCS := firmware/sim/slip_bridge.c wasm/tun/tun_dev.c wasm/tun/tun_serial.c
$(FW)/stackscope-slipbridge: $(BRIDGE_SRCS) $(wildcard wasm/tun/*.h) $(BUILD)/native/libstack.a
	@mkdir -p $(dir $@)
	$(CC) $(NATIVE_CFLAGS) -Iwasm/tun $(BRIDGE_SRCS) $(BUILD)/native/libstack.a -o $@
