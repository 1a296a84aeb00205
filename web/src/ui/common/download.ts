// Saving bytes the page made (pcapng, SVG, PNG) as a file, without a server.
export function downloadBytes(data: Uint8Array | string, filename: string, type: string): void {
  // A capture of a long run is hundreds of megabytes: copied only if its buffer is shared.
  const part = typeof data === 'string' || data.buffer instanceof ArrayBuffer ? (data as string | Uint8Array<ArrayBuffer>) : new Uint8Array(data);
  const blob = new Blob([part], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
