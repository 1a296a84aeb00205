// The live connection's state: which board, how the line is, the session and its counters.
// Whoever shows the session (the page: app/live_page.ts) hears of its changes through
// onSessionChange(), at most REFRESH_MS apart; this module knows nothing of the page.
import { useSyncExternalStore } from 'react';
import { EmulatedSerialPort, emulatedPort } from './emulated_port.ts';
import { LiveSession } from './live_session.ts';

const REFRESH_MS = 200;
/** Opening the port resets an Uno (DTR), and its bootloader waits about a second first. */
const USB_BOOT_MS = 2000;

export type LiveKind = 'usb' | 'emulated';

export interface LiveState {
  status: 'idle' | 'connecting' | 'starting' | 'up' | 'ended';
  kind: LiveKind | null;
  baud: number;
  session: LiveSession | null;
  emulated: EmulatedSerialPort | null;
  /** the last problem, or why the line ended */
  message: string | null;
  /** bumped on every change of the session, for the counters */
  version: number;
}

let live: LiveState = { status: 'idle', kind: null, baud: 57600, session: null, emulated: null, message: null, version: 0 };
const listeners = new Set<() => void>();
const sessionListeners = new Set<() => void>();
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

export function getLive(): LiveState {
  return live;
}

function setLive(patch: Partial<LiveState>): void {
  live = { ...live, ...patch };
  for (const l of listeners) l();
}

export function useLive<T>(select: (s: LiveState) => T): T {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => select(live),
  );
}

export function setBaud(baud: number): void {
  setLive({ baud });
}

/** Web Serial is there (Chromium-based browsers on a secure origin), or a stand-in is. */
export function hasWebSerial(): boolean {
  return typeof navigator !== 'undefined' && 'serial' in navigator && !!navigator.serial;
}

/** Calls `fn` when the session (a new one, or what it captured) has changed; returns the
 *  unsubscribe function. */
export function onSessionChange(fn: () => void): () => void {
  sessionListeners.add(fn);
  return () => sessionListeners.delete(fn);
}

function sessionChanged(): void {
  refreshTimer = null;
  for (const l of sessionListeners) l();
}

function scheduleRefresh(): void {
  setLive({ version: live.version + 1 });
  if (!refreshTimer) refreshTimer = setTimeout(sessionChanged, REFRESH_MS);
}

/** Connects to a board: a port the user picks (Web Serial), or the emulated Arduino. */
export async function connect(kind: LiveKind): Promise<void> {
  if (live.status === 'connecting' || live.status === 'starting' || live.status === 'up') return;
  let port: SerialPort;
  let emulated: EmulatedSerialPort | null = null;
  const before = live.kind;
  setLive({ status: 'connecting', kind, message: null });
  try {
    if (kind === 'usb') {
      if (!hasWebSerial()) throw new Error('this browser has no Web Serial (Firefox and Safari do not): use the emulated Arduino, or Chrome or Edge');
      port = await navigator.serial.requestPort();
      // a script's stand-in for Web Serial may hand over the emulated board itself
      if ((port as unknown) instanceof EmulatedSerialPort) emulated = port as unknown as EmulatedSerialPort;
    } else {
      ({ port, board: emulated } = emulatedPort());
    }
    const label = kind === 'usb' ? 'Arduino over Web Serial' : 'Emulated Arduino (avr8js)';
    const session = await LiveSession.connect(port, live.baud, label);
    await live.session?.disconnect();
    session.onChange(() => {
      if (session.ended !== null && live.session === session && live.status !== 'ended')
        setLive({ status: 'ended', message: session.ended === 'disconnected' ? null : session.ended });
      scheduleRefresh();
    });
    setLive({ session, emulated, status: kind === 'usb' ? 'starting' : 'up' });
    sessionChanged();
    if (kind === 'usb')
      setTimeout(() => {
        if (live.session === session && live.status === 'starting') setLive({ status: 'up' });
      }, USB_BOOT_MS);
  } catch (e) {
    const message = e instanceof DOMException && e.name === 'NotFoundError' ? 'no port was chosen' : e instanceof Error ? e.message : String(e);
    // the session shown is still the one before, and so is its kind
    setLive({ status: live.session ? 'ended' : 'idle', kind: live.session ? before : null, message });
  }
}

export async function disconnect(): Promise<void> {
  await live.session?.disconnect();
}

/** The emulated board's cable is pulled (what a hobbyist's unplugging does). */
export function unplugEmulated(): void {
  live.emulated?.unplug();
}
