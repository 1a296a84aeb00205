// The bytes pane: offset, 16 bytes in hex, the same in ASCII. The selected field's bytes
// are highlighted; clicking a byte selects the innermost field covering it. One tab per
// byte source (the frame, a reassembled datagram), as Wireshark shows them.
import { Fragment } from 'react';
import { asciiOf, hex2, hexLines, offsetText } from './tree_model.ts';

export interface HexDumpProps {
  sources: { name: string; bytes: Uint8Array }[];
  src: number;
  onSrc: (src: number) => void;
  highlight: { start: number; end: number } | null;
  onPick: (offset: number) => void;
}

export function HexDump({ sources, src, onSrc, highlight, onPick }: HexDumpProps) {
  const bytes = sources[src]?.bytes ?? new Uint8Array(0);
  const hl = (i: number): boolean => !!highlight && i >= highlight.start && i < highlight.end;
  const pick = (e: React.MouseEvent) => {
    const off = (e.target as HTMLElement).dataset.off;
    if (off !== undefined) onPick(Number(off));
  };
  return (
    <div className="pd-bytes" role="region" aria-label="Packet bytes">
      {sources.length > 1 && (
        <div className="pd-tabs" role="tablist" aria-label="Byte sources">
          {sources.map((s, i) => (
            <button key={s.name} type="button" role="tab" aria-selected={i === src} onClick={() => onSrc(i)}>
              {s.name}
            </button>
          ))}
        </div>
      )}
      <div onClick={pick}>
        {hexLines(bytes).map((line) => (
          <div key={line.offset} className="pd-hexline">
            <span className="pd-off">{offsetText(line.offset)}</span>
            {'  '}
            {Array.from(line.bytes, (b, k) => {
              const i = line.offset + k;
              return (
                <Fragment key={k}>
                  {k === 8 ? '  ' : k ? ' ' : ''}
                  <span data-off={i} className={`pd-byte${hl(i) ? ' pd-hl' : ''}`}>
                    {hex2(b)}
                  </span>
                </Fragment>
              );
            })}
            {' '.repeat(3 + hexWidth(16) - hexWidth(line.bytes.length))}
            {Array.from(line.bytes, (b, k) => {
              const i = line.offset + k;
              return (
                <span key={k} data-off={i} className={`pd-byte${hl(i) ? ' pd-hl' : ''}`}>
                  {asciiOf(b)}
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

/** Characters the hex column of a line of n bytes takes (a wider gap after the 8th). */
function hexWidth(n: number): number {
  return n ? n * 3 - 1 + (n > 8 ? 1 : 0) : 0;
}
