// What the page offers to scripts (the browser console, and end-to-end tests that stand in
// for navigator.serial): the emulated Arduino as a Web Serial port. Its code (and the
// board's) loads when first asked for: it is not in the page's first download.

declare global {
  interface Window {
    stackscope?: { emulatedPort: () => Promise<SerialPort> };
  }
}

export function exposeScriptingApi(): void {
  window.stackscope = { emulatedPort: () => import('../serial/emulated_port.ts').then((m) => m.emulatedPort().port) };
}
