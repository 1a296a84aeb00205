// "On the wire": the frame as its link carried it (wire_model.ts), its fate and times.
import type { TraceFrame, TraceLinkEvent } from '../../core/engine/trace_types.ts';
import type { LinkInfo } from './link_info.ts';
import { aNum, durationText, secondsText } from './format.ts';
import { SLIP_ESC, type WireByte } from '../../core/packets/slip_wire.ts';
import { hex2 } from './tree_model.ts';
import { fateText, wireModel, type EthernetWire, type NfcWire, type SerialWire, type WireModel } from './wire_model.ts';

export interface WireViewProps {
  frame: TraceFrame;
  link: LinkInfo | undefined;
  /** the frame's NFC pauses (wire_model.ts nfcPausesOf) */
  nfcPauses: readonly TraceLinkEvent[];
  dropTexts: readonly string[];
  stackSays: string;
  /** datagram bytes [start, end) of the field selected in the tree */
  highlight: { start: number; end: number } | null;
  /** a wire byte carrying datagram byte `offset` was clicked */
  onPick: (offset: number) => void;
}

export function WireView({ frame: f, link, nfcPauses, dropTexts, stackSays, highlight, onPick }: WireViewProps) {
  const m: WireModel = link ? wireModel(f, link.config, nfcPauses) : { kind: 'unknown' };
  const nfc = m.kind === 'nfc';
  const carried = f.ethernet ? 'frame' : 'datagram';
  // Times the trace knows: the line's only if the frame reached it, the end once its fate is.
  const onLine = f.wireLen > 0 || f.tWireEnd > 0;
  const times: [string, number][] = [['Sent', f.tSent]];
  if (onLine) times.push([nfc ? 'First byte to the module' : 'First bit', f.tWire], [nfc ? 'End of the last slot' : 'Last bit', f.tWireEnd]);
  if (f.fate === 0 || f.fate === 1) times.push([f.fate === 1 ? 'Dropped' : 'Delivered', f.tEnd]);
  return (
    <section className="pd-wire" aria-label="On the wire">
      <h3>On the wire{link ? `: ${link.label}` : ''}</h3>
      <dl className="pd-facts">
        <dt>Fate</dt>
        <dd>{fateText(f, dropTexts)}</dd>
        {stackSays && (
          <>
            <dt>Stack says</dt>
            <dd>{stackSays}</dd>
          </>
        )}
        {times.map(([k, t]) => (
          <FactRow key={k} k={k} v={`${secondsText(t)}${k === 'Sent' ? '' : ` (+${durationText(t - f.tSent)})`}`} />
        ))}
        <dt>Wire length</dt>
        <dd>
          {f.wireLen ? `${f.wireLen} bytes for ${aNum(f.bytes.length)}-byte ${carried}` : `never reached the line (${aNum(f.bytes.length)}-byte ${carried})`}
        </dd>
        {f.queue > 0 && <FactRow k="Queue" v={`${f.queue} frame${f.queue === 1 ? '' : 's'} waiting ahead of it`} />}
      </dl>
      {(m.kind === 'slip' || m.kind === 'slip6') && <Serial m={m} highlight={highlight} onPick={onPick} />}
      {m.kind === 'cslip' && (
        <p>
          CSLIP (RFC 1144):{' '}
          {m.whole
            ? `sent whole (TYPE_IP or UNCOMPRESSED_TCP), ${m.wireLen} bytes with SLIP framing.`
            : m.compressedLen === null
              ? `${m.wireLen} bytes on the line where SLIP would send ${m.slipLen}.`
              : `${m.wireLen} bytes on the line where SLIP would send ${m.slipLen}: the ${m.headerLen}-byte TCP/IP header went as ${aNum(m.compressedLen)}-byte compressed header (escapes included).`}{' '}
          The compressed header's bytes are not in the trace; the list shows the datagram as rebuilt.
          {m.lineUs > 0 && ` ${durationText(m.lineUs)} on the line.`}
        </p>
      )}
      {m.kind === 'nfc' && <Nfc m={m} />}
      {m.kind === 'ethernet' && <Ethernet m={m} />}
    </section>
  );
}

function FactRow({ k, v }: { k: string; v: string }) {
  return (
    <>
      <dt>{k}</dt>
      <dd>{v}</dd>
    </>
  );
}

function Serial({ m, highlight, onPick }: { m: SerialWire; highlight: WireViewProps['highlight']; onPick: (o: number) => void }) {
  const slip6 = m.kind === 'slip6';
  const show = (b: WireByte) => (slip6 ? String.fromCharCode(b.value) : hex2(b.value));
  const first = m.leadingEnd ? 1 : 0;
  const cls = (b: WireByte, i: number) => {
    const kind = b.kind === 'end' ? 'wire-end' : b.kind === 'esc' ? 'wire-esc' : '';
    const hl = highlight && b.src >= highlight.start && b.src < highlight.end ? ' wire-hl' : '';
    // SLIP6 sends 3 bytes as 4 characters: a gap after each group shows them.
    const group = slip6 && b.kind === 'data' && (i - first) % 4 === 3 ? ' wire-group' : '';
    return kind + hl + group;
  };
  const name = (b: WireByte) =>
    b.kind === 'end'
      ? 'END'
      : b.kind === 'esc'
        ? `${b.value === SLIP_ESC ? 'ESC' : b.value === 0xdc ? 'ESC_END' : 'ESC_ESC'} (datagram byte ${b.src})`
        : `datagram byte ${b.src}`;
  return (
    <>
      <p>
        {slip6
          ? `SLIP6 (Linux's 6-bit SLIP): every 3 bytes as 4 characters '0'..'o', END is 'p'${m.leadingEnd ? ' before and after' : ' after'} the frame; ${m.wireLen} characters.`
          : `SLIP (RFC 1055): ${m.leadingEnd ? 'END before and after the datagram' : 'END after the datagram'}, ${m.escapes} byte${m.escapes === 1 ? '' : 's'} escaped (0xC0 as DB DC, 0xDB as DB DD); ${m.wireLen} bytes.`}
        {m.lineUs > 0 && ` ${durationText(m.lineUs)} on the line.`}
        {m.mismatch && ' (The simulator reported a different wire length.)'}
      </p>
      <p className="wire-legend" aria-hidden="true">
        <span className="wire-end">END</span>
        {!slip6 && <span className="wire-esc">ESC sequence</span>}
      </p>
      <div
        className={`wire-bytes${slip6 ? ' wire-slip6' : ''}`}
        aria-label={slip6 ? 'Characters on the line' : 'Bytes on the line'}
        onClick={(e) => {
          const s = (e.target as HTMLElement).dataset.src;
          if (s !== undefined && Number(s) >= 0) onPick(Number(s));
        }}
      >
        {m.bytes.map((b, i) => (
          <span key={i} className={cls(b, i)} data-src={b.src} title={name(b)}>
            {show(b)}
          </span>
        ))}
      </div>
    </>
  );
}

function Nfc({ m }: { m: NfcWire }) {
  return (
    <>
      <p>
        NFC: the {m.datagramLen}-byte datagram is {aNum(m.packetLen)}-byte packet ({m.pktOverhead} bytes of UI protocol and packet handling),{' '}
        {durationText(m.uartUs)} on the UART to the module, then {m.chunkBytes}-byte chunks of {m.payloadPerChunk} packet bytes ({m.chunkOverhead} NFC bytes
        each), one per {durationText(m.periodUs)} slot of {durationText(m.airUs)}: {m.slots ? `${m.slots} slots.` : 'it never got a slot.'}
        {m.pausedSlots > 0 && ` The other end's packets took ${m.pausedSlots} slots in between: the chunks wait for them.`}
      </p>
      {m.chunks.length > 0 && (
        <table className="wire-chunks">
          <caption className="muted">Chunks</caption>
          <thead>
            <tr>
              <th scope="col">Chunk</th>
              <th scope="col">Packet bytes</th>
              <th scope="col">Slot start</th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {m.chunks.map((c) => (
              <tr key={c.index}>
                <td>{c.index}</td>
                <td>
                  {c.from}–{c.to - 1}
                </td>
                <td>{secondsText(c.slotStart)}</td>
                <td>{secondsText(c.slotEnd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Ethernet({ m }: { m: EthernetWire }) {
  const parts: [string, number, string][] = [
    ['Preamble + SFD', m.preamble, ''],
    ['Header', m.header, 'wire-part-frame'],
    ['Payload (IPv4 or ARP)', m.payloadLen, 'wire-part-data'],
    ['Padding', m.padding, 'wire-part-frame'],
    ['FCS', m.fcs, 'wire-part-frame'],
    ['Gap', m.gap, ''],
  ];
  return (
    <>
      <p>
        Ethernet: {aNum(m.frameLen)}-byte frame{m.padding ? ` (data padded to 46 bytes)` : ''}, {m.total} bytes of line time with preamble and inter-frame gap
        {m.lineUs > 0 ? `: ${durationText(m.lineUs)}` : ''}.
      </p>
      <div
        className="wire-parts"
        role="img"
        aria-label={parts
          .filter((p) => p[1])
          .map((p) => `${p[0]} ${p[1]} bytes`)
          .join(', ')}
      >
        {parts
          .filter((p) => p[1] > 0)
          .map(([name, n, cls]) => (
            <div key={name} className={cls} style={{ flex: `${Math.max(n, 6)} 1 0` }} title={`${name}: ${n} bytes`}>
              {name} {n}
            </div>
          ))}
      </div>
    </>
  );
}
