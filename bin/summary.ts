// The summary `stackscope run` prints: duration, frames per link, drops by reason,
// retransmissions by cause, what each application did (with goodput) and, for the apps that
// check the bytes they receive, how many they checked and how many differed; the trace hash.
import type { AppCheck } from '../web/src/core/engine/engine.ts';
import type { RunResult } from '../web/src/core/engine/run.ts';
import { Fate, traceField } from '../web/src/core/engine/trace_types.ts';
import { nodeName } from '../web/src/core/run/lifelines.ts';
import type { Scenario } from '../web/src/core/scenarios/types.ts';

function count<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function s(us: number): string {
  return (us / 1e6).toFixed(3);
}

export function summaryLines(scenario: Scenario, r: RunResult, wallMs: number): string[] {
  const w = r.world;
  const out = [`${scenario.name}: ${scenario.title}`, `seed ${w.seed}; ${s(r.virtualUs)} s of virtual time in ${(wallMs / 1000).toFixed(3)} s`];
  const drops = new Map<string, number>();
  w.links.forEach((link, i) => {
    const frames = r.trace.frames.filter((f) => f.link === i);
    const ab = frames.filter((f) => f.dir === 0).length;
    const lost = frames.filter((f) => f.fate === Fate.Dropped || f.fate === Fate.Unfinished);
    for (const f of lost) count(drops, `${link.name}: ${w.drop_reason_texts[f.reason] ?? f.reason}`);
    out.push(
      `link ${link.name} (${link.description}): ${frames.length} frames ` + `(${ab} a->b, ${frames.length - ab} b->a), ${lost.length} dropped on the link`,
    );
  });
  const dropKind = w.trace_kinds.indexOf('drop');
  const retxKind = w.trace_kinds.indexOf('tcp.retransmit');
  const retx = new Map<string, number>();
  for (const e of r.trace.events) {
    const host = nodeName(w, e.host); // a host, or a bridge (its ARP's decisions)
    if (e.kind === dropKind) {
      const reason = traceField(e, 'drop', 'reason');
      count(drops, `${host}: ${w.drop_reason_texts[reason] ?? reason}`);
    } else if (e.kind === retxKind) {
      const cause = traceField(e, 'tcp.retransmit', 'cause');
      count(retx, `${host}: ${w.retx_causes[cause] ?? cause}`);
    }
  }
  out.push(listLine('drops', drops), listLine('retransmissions', retx));
  for (const app of scenario.apps ?? []) {
    const i = (scenario.apps ?? []).indexOf(app);
    const lines = r.trace.apps.filter((a) => a.app === i);
    const report = lines.find((a) => a.kind === 1);
    const conns = app.type === 'tcp_echo_client' && (app.connections ?? 1) > 1 ? `, ${app.connections} connections` : '';
    const to = 'to' in app ? ` -> ${app.to}${conns}` : '';
    let what = 'no report';
    if (report) {
      const rate = report.elapsedUs > 0 ? `, goodput ${((report.bytes * 8) / report.elapsedUs).toFixed(3)} Mbit/s` : '';
      const time = report.elapsedUs > 0 ? ` in ${s(report.elapsedUs)} s` : '';
      const status = report.error !== 0 ? `error ${report.error}` : report.done ? 'done' : 'not finished';
      what = app.type === 'ping' ? `${status}: ${report.bytes} replies` : `${status}: ${report.bytes} bytes${time}${rate}`;
    }
    out.push(`app ${i} ${app.type} on ${app.host}${to}: ${what}`);
    const check = r.checks?.get(i);
    if (check) out.push(`    content: ${contentText(check)}`);
    // Lines and reports; a tcp_client's received bytes (kind 2) may be anything, and the report counts them.
    for (const l of lines)
      if (l.text && l.kind !== 2)
        out.push(
          ...l.text
            .trimEnd()
            .split('\n')
            .map((t) => `    ${t}`),
        );
  }
  out.push(`trace hash ${r.hash}`);
  return out;
}

function listLine(what: string, m: Map<string, number>): string {
  if (m.size === 0) return `${what}: none`;
  return `${what}: ` + [...m.entries()].map(([k, n]) => `${k} x${n}`).join('; ');
}

function contentText(c: AppCheck): string {
  if (c.checked === 0) return 'no bytes came to check';
  return `${c.checked} bytes checked, ${c.mismatched === 0 ? 'all as expected' : `${c.mismatched} differ from what was expected`}`;
}

/** One line per app whose received bytes differ from those it expected, naming it and the
 *  count; none when every check passed. */
export function contentMismatches(scenario: Scenario, r: RunResult): string[] {
  return (scenario.apps ?? []).flatMap((app, i) => {
    const check = r.checks?.get(i);
    if (!check || check.mismatched === 0) return [];
    return [`app ${i} ${app.type} on ${app.host}: ${check.mismatched} of the ${check.checked} bytes it checked differ from what was expected`];
  });
}
