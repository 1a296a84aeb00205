/// <reference lib="webworker" />
// The emulated Arduino's own thread: runs the board (emulated_board.ts) paced to the wall
// clock, so that from the page it behaves like a board on a serial line. Each byte the
// firmware sends is handed over once its stop bit has ended, and bytes from the page enter
// the board's RX pin the moment they arrive here.
//
// Pacing: while the line is quiet the board is run every IDLE_MS (the browser's timer
// clamp for a timer that keeps re-arming itself); while bytes are moving it is run again
// as soon as the thread is free (a MessageChannel, which no clamp delays), so a reply's
// last byte reaches the page within a fraction of a millisecond, not up to 4 ms later.
import { EmulatedBoard } from './emulated_board.ts';
import { FIRMWARE_HEX } from './firmware_hex.ts';
import type { BoardReply, BoardRequest } from './board_protocol.ts';
import { garbleForBaud } from './uart_mismatch.ts';
import { warmUp } from './warm_up.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const IDLE_MS = 4;
/** after the last byte either way, the line counts as busy this long (the board replies within it) */
const BUSY_AFTER_US = 2_000;
/** the emulation gives up catching up beyond this (a slow machine runs the board slower) */
const MAX_BEHIND_US = 50_000;

let board: EmulatedBoard | null = null;
let hostBaud = 0;
let wallZero = 0;
let lastActivityUs = -Infinity;
let heldTx: { byte: number; atUs: number }[] = [];
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let speedMark = { wall: 0, board: 0 };
const soon = new MessageChannel();

function post(msg: BoardReply, transfer: Transferable[] = []): void {
  scope.postMessage(msg, transfer);
}

/** Runs the board to the board time that corresponds to now; time lost to a slow machine is written off. */
function catchUp(b: EmulatedBoard): void {
  const target = (performance.now() - wallZero) * 1000;
  if (target - b.timeUs > MAX_BEHIND_US) wallZero += (target - b.timeUs - MAX_BEHIND_US) / 1000;
  b.runUntilUs((performance.now() - wallZero) * 1000);
}

/** Hands over the bytes whose last bit has left the board's pin. */
function handOver(b: EmulatedBoard): void {
  heldTx.push(...b.takeTransmitted());
  let n = 0;
  while (n < heldTx.length && heldTx[n]!.atUs <= b.timeUs) n++;
  if (n === 0) return;
  const sent = heldTx.slice(0, n);
  heldTx = heldTx.slice(n);
  lastActivityUs = b.timeUs;
  const bytes = garbleForBaud(
    Uint8Array.from(sent, (s) => s.byte),
    b.baud,
    hostBaud,
  );
  post({ type: 'data', bytes, lastAt: performance.timeOrigin + wallZero + sent[n - 1]!.atUs / 1000 }, [bytes.buffer]);
}

function reportSpeed(b: EmulatedBoard): void {
  const wall = performance.now();
  if (wall - speedMark.wall < 1000) return;
  post({ type: 'speed', ratio: (b.timeUs - speedMark.board) / 1000 / (wall - speedMark.wall) });
  speedMark = { wall, board: b.timeUs };
}

function tick(): void {
  if (!board) return;
  catchUp(board);
  handOver(board);
  reportSpeed(board);
  const busy = board.rxPending > 0 || heldTx.length > 0 || board.timeUs - lastActivityUs < BUSY_AFTER_US;
  if (busy) soon.port2.postMessage(null);
  else idleTimer = setTimeout(tick, IDLE_MS);
}
soon.port1.onmessage = tick;

function open(baud: number): void {
  warmUp(FIRMWARE_HEX);
  board = new EmulatedBoard(FIRMWARE_HEX);
  hostBaud = baud;
  wallZero = performance.now();
  speedMark = { wall: wallZero, board: 0 };
  post({ type: 'opened' });
  tick();
}

function write(b: EmulatedBoard, bytes: Uint8Array, sentAt: number): void {
  catchUp(b);
  b.receive(garbleForBaud(bytes, hostBaud, b.baud));
  post({ type: 'received', delayMs: performance.timeOrigin + wallZero + b.timeUs / 1000 - sentAt });
  lastActivityUs = b.timeUs;
  // from idle to busy: run again at once rather than at the idle timer
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
    soon.port2.postMessage(null);
  }
}

scope.onmessage = (e: MessageEvent<BoardRequest>) => {
  const msg = e.data;
  try {
    if (msg.type === 'open') open(msg.baud);
    else if (msg.type === 'write' && board) write(board, msg.bytes, msg.sentAt);
    else if (msg.type === 'close') {
      if (idleTimer) clearTimeout(idleTimer);
      board = null;
    }
  } catch (err) {
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
};
