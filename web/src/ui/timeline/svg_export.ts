// Saving a view as SVG or PNG. The views style their SVG with the page's theme variables;
// a file read outside the page has no such variables, so they are replaced by their
// current values. PNG: the same SVG drawn onto a canvas at twice the size.
import { downloadBytes } from '../common/download.ts';

/** var(--name) and var(--name, fallback) replaced by the values they have on `el`. */
export function resolveCssVars(text: string, lookup: (name: string) => string): string {
  return text.replace(/var\((--[\w-]+)(?:\s*,\s*([^()]*))?\)/g, (_, name: string, fallback?: string) => {
    const v = lookup(name).trim();
    return v || (fallback ?? '').trim() || 'initial';
  });
}

/** The element as a standalone SVG document (marks made for the screen only, such as the
 *  playback veil, left out). */
export function serializeSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  for (const el of Array.from(clone.querySelectorAll('.no-export'))) el.remove();
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('version', '1.1');
  const text = new XMLSerializer().serializeToString(clone);
  // A detached SVG (made just for the export) has no computed style: the page's root has
  // the same variables.
  const cs = getComputedStyle(svg.isConnected ? svg : document.documentElement);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${resolveCssVars(text, (n) => cs.getPropertyValue(n))}`;
}

export async function svgToPng(svgText: string, width: number, height: number, scale = 2): Promise<Uint8Array> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((res) => canvas.toBlob(res, 'image/png'));
    if (!blob) throw new Error('the canvas gave no PNG');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function saveSvg(svg: SVGSVGElement, filename: string): void {
  downloadBytes(serializeSvg(svg), filename, 'image/svg+xml');
}

export async function savePng(svg: SVGSVGElement, filename: string): Promise<void> {
  const w = Number(svg.getAttribute('width')) || svg.clientWidth;
  const h = Number(svg.getAttribute('height')) || svg.clientHeight;
  downloadBytes(await svgToPng(serializeSvg(svg), w, h), filename, 'image/png');
}
