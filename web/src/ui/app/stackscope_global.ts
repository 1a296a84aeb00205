// What the page offers to scripts (the browser console, and end-to-end tests that stand in
// for navigator.serial): the emulated Arduino as a Web Serial port.
import { emulatedPort } from '../serial/emulated_port.ts';

declare global {
  interface Window {
    stackscope?: { emulatedPort: () => SerialPort };
  }
}

export function exposeScriptingApi(): void {
  window.stackscope = { emulatedPort: () => emulatedPort().port };
}
