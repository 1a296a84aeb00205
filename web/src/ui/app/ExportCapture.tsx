// The capture exports of the scenario bar. "Export pcapng" writes the capture point in view
// (one interface), so Wireshark's Info column and analysis flags are the packet list's, row
// for row; "Export all links" writes the engine's file of every captured link, where
// Wireshark reads a bridge's copies as retransmissions (core/engine/pcapng_link.ts says why).
import type { RunModel } from '../../core/run/run_model.ts';
import { downloadBytes } from '../common/download.ts';
import { setState, useApp, type AppState } from '../common/store.ts';

const PCAPNG_TYPE = 'application/vnd.tcpdump.pcap';

const ALL_LINKS_NOTE =
  'Every captured link in one pcapng, one interface each. Wireshark keys a TCP conversation by addresses and ports, not by interface, ' +
  "so it reads a bridge's copy of a segment on its second link as a retransmission of the first (or a keep-alive, a dup ACK): " +
  'its Info column and flags there differ from the packet list. Export pcapng writes one link, as the packet list shows it.';

/** The engine's file: in live mode the session's, which grows after the run was taken (the
 *  live store is loaded by then, with the live tools: not in the first download). */
async function enginePcapng(run: RunModel, mode: AppState['mode']): Promise<Uint8Array> {
  if (mode !== 'live') return run.result.pcapng;
  const { getLive } = await import('../serial/live_store.ts');
  return getLive().session?.pcapng() ?? run.result.pcapng;
}

async function exportLink(run: RunModel, mode: AppState['mode'], link: number, name: string): Promise<void> {
  const bytes = await enginePcapng(run, mode);
  const { linkPcapng, PcapngError } = await import('../../core/engine/pcapng_link.ts'); // loaded when first used
  try {
    downloadBytes(linkPcapng(bytes, run.result.world, link), `${name}-${run.result.world.links[link]!.name}.pcapng`, PCAPNG_TYPE);
  } catch (e) {
    if (!(e instanceof PcapngError)) throw e;
    setState({ error: `Export pcapng: ${e.message}` });
  }
}

export function ExportCapture() {
  const run = useApp((s) => s.run);
  const link = useApp((s) => s.link);
  const name = useApp((s) => s.scenarioName);
  const mode = useApp((s) => s.mode);
  const links = run?.result.world.links ?? [];
  const index = Math.min(link, links.length - 1);
  const inView = links[index];
  const captured = links.filter((l) => l.capture_interface >= 0).length;
  // A run cut short (going on, or cancelled) exports the capture so far, said so.
  const soFar = run?.result.partial ? ' (the run so far: it did not end)' : '';
  const one = !inView
    ? 'No run yet'
    : inView.capture_interface < 0
      ? `Link ${inView.name} is not in the scenario's capture list: choose a captured capture point`
      : `The capture point in view, link ${inView.name}, as one interface: Wireshark shows the packet list's rows${soFar}`;
  return (
    <>
      <button
        type="button"
        disabled={!run || !inView || inView.capture_interface < 0}
        title={one}
        onClick={() => run && void exportLink(run, mode, index, name)}
      >
        Export pcapng
      </button>
      <button
        type="button"
        disabled={!run || captured < 2}
        title={captured < 2 ? 'Only one link is captured: Export pcapng writes it' : ALL_LINKS_NOTE + soFar}
        onClick={() => run && void enginePcapng(run, mode).then((bytes) => downloadBytes(bytes, `${name}-all-links.pcapng`, PCAPNG_TYPE))}
      >
        Export all links (pcapng)
      </button>
    </>
  );
}
